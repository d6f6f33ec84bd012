//! When one check implies another: the decidable part of "can this state ever win?".
//!
//! `implies(a, b)` is true only when every page (or desktop) on which `a` holds also makes
//! `b` hold. It is sound, not complete: `false` means "not proven". Values are compared as
//! written, parameters unbound; a prefix or substring relation between two templates holds
//! for every value the parameters take, so that is sound too.

use std::borrow::Cow;

use statewright_workflow::{Check, SelectorKind, TextMatch, TitleMatch, UrlMatch, WindowSelector};

/// Whether `a` holding proves that `b` holds.
pub fn implies(a: &Check, b: &Check) -> bool {
    if a == b {
        return true;
    }
    match (a, b) {
        (Check::Url { mode: ma, value: va, negate: na }, Check::Url { mode: mb, value: vb, negate: nb }) => {
            url(*ma, va, *na, *mb, vb, *nb)
        }
        (Check::Title { mode: ma, value: va, negate: false }, Check::Title { mode: mb, value: vb, negate: false })
        | (
            Check::WindowTitle { mode: ma, value: va, negate: false },
            Check::WindowTitle { mode: mb, value: vb, negate: false },
        ) => title(*ma, va, *mb, vb),
        (Check::Text { mode: ma, value: va, negate: false }, Check::Text { mode: mb, value: vb, negate: false }) => {
            text(*ma, va, *mb, vb)
        }
        // No element contains `a` means none equals or contains anything that contains `a`.
        (
            Check::Text { mode: TextMatch::Contains, value: va, negate: true },
            Check::Text { value: vb, negate: true, .. },
        ) => vb.contains(va.as_str()),
        (
            Check::Element { by: SelectorKind::Css, selector: sa, negate: false },
            Check::Element { by: SelectorKind::Css, selector: sb, negate: false },
        ) => sa.trim() == sb.trim(),
        (Check::AppClass { value: va, negate: na }, Check::AppClass { value: vb, negate: nb }) => {
            na == nb && va.eq_ignore_ascii_case(vb)
        }
        // The focused window exists.
        (Check::WindowFocused { negate: false, .. }, Check::WindowExists { negate: false, .. }) => {
            window(a) == window(b)
        }
        // No such window means none is focused.
        (Check::WindowExists { negate: true, .. }, Check::WindowFocused { negate: true, .. }) => window(a) == window(b),
        _ => false,
    }
}

fn window(check: &Check) -> Option<WindowSelector> {
    check.window_selector()
}

fn url(ma: UrlMatch, va: &str, na: bool, mb: UrlMatch, vb: &str, nb: bool) -> bool {
    use UrlMatch::{Exact, Prefix};
    match (na, nb) {
        (false, false) => match (ma, mb) {
            (Exact, Exact) => va == vb,
            (Exact | Prefix, Prefix) => va.starts_with(vb),
            _ => false,
        },
        // The URL is `va` (or starts with it), so it is not something `va` rules out.
        (false, true) => match (ma, mb) {
            (Exact, Exact) => va != vb && !has_template(va) && !has_template(vb),
            (Exact | Prefix, Prefix) => {
                // A URL starting with `va` cannot start with `vb` when neither is a prefix of
                // the other (compared up to the shorter one, literally).
                !va.starts_with(vb) && !vb.starts_with(va) && !has_template(va) && !has_template(vb)
            }
            _ => false,
        },
        // Not starting with `va` means not starting with anything longer that starts with it.
        (true, true) => match (ma, mb) {
            (Prefix, Prefix) | (Prefix, Exact) => vb.starts_with(va),
            _ => false,
        },
        (true, false) => false,
    }
}

fn title(ma: TitleMatch, va: &str, mb: TitleMatch, vb: &str) -> bool {
    use TitleMatch::{Contains, Exact};
    match (ma, mb) {
        (Exact, Exact) => va == vb,
        (Exact | Contains, Contains) => va.contains(vb),
        _ => false,
    }
}

fn text(ma: TextMatch, va: &str, mb: TextMatch, vb: &str) -> bool {
    use TextMatch::{Contains, Equals};
    // Visible text is compared whitespace-normalised.
    let (va, vb) = (normalise(va), normalise(vb));
    match (ma, mb) {
        (Equals, Equals) => va == vb,
        (Equals | Contains, Contains) => va.contains(vb.as_ref()),
        _ => false,
    }
}

/// `s` with runs of whitespace made one space and none at the ends. Most texts are that
/// already and are not copied: the shadowed check compares every pair of text-only states,
/// and copying each text at each comparison was most of `validate`'s time on them.
pub(crate) fn normalise(s: &str) -> Cow<'_, str> {
    let mut previous_space = true;
    let normal = s.chars().all(|c| {
        let ok = if c.is_whitespace() { c == ' ' && !previous_space } else { true };
        previous_space = c.is_whitespace();
        ok
    }) && !s.ends_with(' ');
    if normal { Cow::Borrowed(s) } else { Cow::Owned(s.split_whitespace().collect::<Vec<_>>().join(" ")) }
}

/// Two different templates may bind to the same text, so inequality is not provable.
fn has_template(s: &str) -> bool {
    s.contains("{{")
}

/// Whether every check of `weaker` is implied by some check of `stronger`: wherever all of
/// `stronger` hold, all of `weaker` hold too.
pub fn all_implied(stronger: &[Check], weaker: &[Check]) -> bool {
    !weaker.is_empty() && weaker.iter().all(|w| stronger.iter().any(|s| implies(s, w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(mode: UrlMatch, value: &str, negate: bool) -> Check {
        Check::Url { mode, value: value.into(), negate }
    }
    fn text(mode: TextMatch, value: &str, negate: bool) -> Check {
        Check::Text { mode, value: value.into(), negate }
    }
    fn css(selector: &str) -> Check {
        Check::Element { by: SelectorKind::Css, selector: selector.into(), negate: false }
    }

    #[test]
    fn url_prefixes_and_exact_values() {
        use UrlMatch::*;
        assert!(implies(&url(Exact, "http://x/cart.html", false), &url(Prefix, "http://x/", false)));
        assert!(implies(&url(Prefix, "{{site}}/cart.html", false), &url(Prefix, "{{site}}/", false)));
        assert!(!implies(&url(Prefix, "{{site}}/", false), &url(Prefix, "{{site}}/cart.html", false)));
        assert!(!implies(&url(Prefix, "http://x/", false), &url(Exact, "http://x/", false)));
        assert!(implies(&url(Exact, "http://x/a", false), &url(Exact, "http://x/b", true)));
        assert!(!implies(&url(Exact, "{{a}}", false), &url(Exact, "{{b}}", true)), "templates may coincide");
        assert!(implies(&url(Prefix, "http://x/a", false), &url(Prefix, "http://x/b", true)));
        assert!(implies(&url(Prefix, "http://x/", true), &url(Prefix, "http://x/cart", true)));
        assert!(!implies(&url(Prefix, "http://x/cart", true), &url(Prefix, "http://x/", true)));
        assert!(!implies(&url(Pattern, "cart", false), &url(Prefix, "cart", false)), "patterns are not compared");
    }

    #[test]
    fn texts_are_compared_whitespace_normalised() {
        for (text, normal) in [
            ("Order confirmed", "Order confirmed"),
            ("Order  confirmed", "Order confirmed"),
            (" Order confirmed", "Order confirmed"),
            ("Order confirmed ", "Order confirmed"),
            ("Order\tconfirmed", "Order confirmed"),
            ("Order\u{a0}confirmed", "Order confirmed"),
            ("\n", ""),
            ("", ""),
            ("é ✓", "é ✓"),
        ] {
            assert_eq!(normalise(text), normal, "{text:?}");
        }
    }

    #[test]
    fn text_and_titles() {
        use TextMatch::*;
        assert!(implies(&text(Equals, "Order  confirmed", false), &text(Contains, "confirmed", false)));
        assert!(implies(&text(Contains, "Order confirmed", false), &text(Contains, "Order", false)));
        assert!(!implies(&text(Contains, "Order", false), &text(Equals, "Order", false)));
        assert!(implies(&text(Contains, "Order", true), &text(Equals, "Order confirmed", true)));
        assert!(!implies(&text(Equals, "Order", true), &text(Contains, "Order", true)));
        let title = |mode, value: &str| Check::Title { mode, value: value.into(), negate: false };
        assert!(implies(&title(TitleMatch::Exact, "Cart — Shop"), &title(TitleMatch::Contains, "Cart")));
        assert!(!implies(&title(TitleMatch::Contains, "Cart"), &title(TitleMatch::Exact, "Cart")));
    }

    #[test]
    fn elements_and_windows() {
        assert!(implies(&css(" #cart "), &css("#cart")));
        assert!(!implies(&css("#cart"), &css("#cart-items")));
        let focused =
            Check::WindowFocused { title: Some("t".into()), mode: TitleMatch::Exact, app_class: None, negate: false };
        let exists =
            Check::WindowExists { title: Some("t".into()), mode: TitleMatch::Exact, app_class: None, negate: false };
        assert!(implies(&focused, &exists));
        assert!(!implies(&exists, &focused));
    }

    #[test]
    fn sets_of_checks() {
        use UrlMatch::*;
        let strong = [url(Prefix, "{{site}}/cart.html", false), css("#place-order")];
        assert!(all_implied(&strong, &[url(Prefix, "{{site}}/", false)]));
        assert!(!all_implied(&strong, &[url(Prefix, "{{site}}/", false), css("#hero")]));
        assert!(!all_implied(&strong, &[]), "a state without checks never matches, so is never implied");
    }
}
