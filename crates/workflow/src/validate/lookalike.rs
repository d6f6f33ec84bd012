//! State names that read alike but are not one name: `Café` written precomposed and as `e`
//! with a combining accent, `Cart` and `cart`, `ＣＡＲＴ` in full-width letters, a name with
//! a zero-width space in it. `next`, `goto`, logs and the review queue name states by their
//! text, so a person who picks the one they see may get the other; and a name holding a
//! bidirectional control shows its letters in another order than they are (Trojan Source).
//! Each is a warning: the file runs as it is written.

use std::collections::HashMap;

use icu_normalizer::ComposingNormalizerBorrowed;

use crate::diagnostic::Reporter;
use crate::model::Workflow;
use crate::span::JsonPath;

/// Characters that show nothing: zero-width space, joiners, word joiner, the byte order
/// mark, the soft hyphen and the Mongolian vowel separator.
const INVISIBLE: &[char] = &['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}', '\u{180E}'];

/// Bidirectional controls: embeddings and overrides (U+202A–U+202E), isolates
/// (U+2066–U+2069) and the marks (U+200E, U+200F, U+061C).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// What a name reads as: without invisible characters and bidirectional controls, in
/// compatibility-normalised form (NFKC: a precomposed `é` and `e` + U+0301 are one, as are
/// full-width and ASCII letters), lower-cased.
fn reading(name: &str) -> String {
    let shown: String = name.chars().filter(|c| !INVISIBLE.contains(c) && !is_bidi_control(*c)).collect();
    ComposingNormalizerBorrowed::new_nfkc().normalize(&shown).to_lowercase()
}

/// Warns of each state name that holds what cannot be seen, and of each that reads as an
/// earlier state's name without being it.
pub(super) fn lookalike_state_names(workflow: &Workflow, states: &JsonPath, report: &mut Reporter) {
    let mut read: HashMap<String, usize> = HashMap::new();
    for (i, state) in workflow.states.iter().enumerate() {
        let path = states.index(i).key("name");
        let name = &state.name;
        if name.chars().any(is_bidi_control) {
            report.warning(
                &path,
                format!("state name `{name}` holds a bidirectional control, which shows its text in another order"),
                Some("remove the control character (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C)".into()),
            );
        } else if name.contains(INVISIBLE) {
            report.warning(
                &path,
                format!("state name `{name}` holds a character that shows nothing (a zero-width space or joiner)"),
                Some("remove it: two names that differ by it look the same".into()),
            );
        }
        let key = reading(name);
        match read.get(&key) {
            // The very same name is an error of its own (duplicate state name).
            Some(&first) if workflow.states[first].name != *name => report.warning(
                &path,
                format!(
                    "state name `{name}` reads as `{}` (states[{first}]) but is another name",
                    workflow.states[first].name
                ),
                Some(
                    "names that differ only in case, accents written another way, full-width letters or characters \
                      that show nothing are easy to mistake for each other; rename one"
                        .into(),
                ),
            ),
            Some(_) => {}
            None => {
                read.insert(key, i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::reading;

    #[test]
    fn names_that_read_alike_read_the_same() {
        assert_eq!(reading("Caf\u{e9}"), reading("Cafe\u{301}"));
        assert_eq!(reading("Cart"), reading("cart"));
        assert_eq!(reading("ＣＡＲＴ"), reading("Cart"));
        assert_eq!(reading("Ca\u{200B}rt"), reading("Cart"));
        assert_eq!(reading("\u{202E}Cart\u{202C}"), reading("Cart"));
        assert_ne!(reading("Cart"), reading("Carts"));
        assert_ne!(reading("Café"), reading("Cafe"));
    }
}
