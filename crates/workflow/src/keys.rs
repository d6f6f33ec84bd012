//! Key names and combinations (`Enter`, `tab`, `Control+Shift+A`), resolved to the
//! DOM `key`/`code` values and legacy key codes that a real keyboard would produce
//! (US layout), so pages see the same events as from a person.

/// A key as a keyboard event describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyDef {
    /// DOM `KeyboardEvent.key`, e.g. `Enter`, `a`, `A`.
    pub key: String,
    /// DOM `KeyboardEvent.code`, e.g. `Enter`, `KeyA`.
    pub code: String,
    /// Legacy `keyCode`, which many pages still read.
    pub key_code: u32,
    /// The text the key inserts, if any.
    pub text: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Modifiers {
    pub alt: bool,
    pub ctrl: bool,
    pub meta: bool,
    pub shift: bool,
}

impl Modifiers {
    /// The CDP `Input.dispatchKeyEvent` modifier bit mask.
    pub fn cdp_mask(self) -> i64 {
        (self.alt as i64) | (self.ctrl as i64) << 1 | (self.meta as i64) << 2 | (self.shift as i64) << 3
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCombo {
    pub modifiers: Modifiers,
    pub key: KeyDef,
}

/// (names, DOM key, DOM code, key code, text).
type NamedKey = (&'static [&'static str], &'static str, &'static str, u32, Option<&'static str>);

const NAMED: &[NamedKey] = &[
    (&["enter", "return"], "Enter", "Enter", 13, Some("\r")),
    (&["tab"], "Tab", "Tab", 9, None),
    (&["space", "spacebar"], " ", "Space", 32, Some(" ")),
    (&["escape", "esc"], "Escape", "Escape", 27, None),
    (&["backspace"], "Backspace", "Backspace", 8, None),
    (&["delete", "del"], "Delete", "Delete", 46, None),
    (&["insert"], "Insert", "Insert", 45, None),
    (&["arrowup", "up"], "ArrowUp", "ArrowUp", 38, None),
    (&["arrowdown", "down"], "ArrowDown", "ArrowDown", 40, None),
    (&["arrowleft", "left"], "ArrowLeft", "ArrowLeft", 37, None),
    (&["arrowright", "right"], "ArrowRight", "ArrowRight", 39, None),
    (&["home"], "Home", "Home", 36, None),
    (&["end"], "End", "End", 35, None),
    (&["pageup"], "PageUp", "PageUp", 33, None),
    (&["pagedown"], "PageDown", "PageDown", 34, None),
];

const MODIFIER_KEYS: &[(&[&str], &str, &str, u32)] = &[
    (&["control", "ctrl"], "Control", "ControlLeft", 17),
    (&["shift"], "Shift", "ShiftLeft", 16),
    (&["alt", "option"], "Alt", "AltLeft", 18),
    (&["meta", "cmd", "command", "super", "win"], "Meta", "MetaLeft", 91),
];

/// US-layout punctuation: (unshifted, shifted, code, keyCode).
const PUNCTUATION: &[(char, char, &str, u32)] = &[
    ('`', '~', "Backquote", 192),
    ('-', '_', "Minus", 189),
    ('=', '+', "Equal", 187),
    ('[', '{', "BracketLeft", 219),
    (']', '}', "BracketRight", 221),
    ('\\', '|', "Backslash", 220),
    (';', ':', "Semicolon", 186),
    ('\'', '"', "Quote", 222),
    (',', '<', "Comma", 188),
    ('.', '>', "Period", 190),
    ('/', '?', "Slash", 191),
];

const SHIFTED_DIGITS: &str = ")!@#$%^&*(";

/// The key that types `c` on a US keyboard, and whether Shift is needed. `None` for
/// characters no key produces (those are inserted as text instead).
pub fn key_for_char(c: char) -> Option<(KeyDef, bool)> {
    let def = |key: char, code: String, key_code: u32| KeyDef {
        key: key.to_string(),
        code,
        key_code,
        text: Some(key.to_string()),
    };
    match c {
        'a'..='z' => Some((def(c, format!("Key{}", c.to_ascii_uppercase()), c.to_ascii_uppercase() as u32), false)),
        'A'..='Z' => Some((def(c, format!("Key{c}"), c as u32), true)),
        '0'..='9' => Some((def(c, format!("Digit{c}"), c as u32), false)),
        ' ' => Some((def(c, "Space".into(), 32), false)),
        '\n' | '\r' => {
            Some((KeyDef { key: "Enter".into(), code: "Enter".into(), key_code: 13, text: Some("\r".into()) }, false))
        }
        '\t' => Some((KeyDef { key: "Tab".into(), code: "Tab".into(), key_code: 9, text: None }, false)),
        _ => {
            if let Some(i) = SHIFTED_DIGITS.find(c) {
                let digit = char::from(b'0' + i as u8);
                return Some((def(c, format!("Digit{digit}"), digit as u32), true));
            }
            PUNCTUATION.iter().find_map(|&(plain, shifted, code, key_code)| {
                (c == plain)
                    .then(|| (def(c, code.into(), key_code), false))
                    .or_else(|| (c == shifted).then(|| (def(c, code.into(), key_code), true)))
            })
        }
    }
}

fn named_key(name: &str) -> Option<KeyDef> {
    // Selenium spells keys ARROW_DOWN and PAGE_UP; DOM spells ArrowDown and PageUp.
    let lower = if name.chars().count() > 1 { name.to_ascii_lowercase().replace('_', "") } else { name.to_owned() };
    if let Some(&(_, key, code, key_code, text)) = NAMED.iter().find(|(names, ..)| names.contains(&lower.as_str())) {
        return Some(KeyDef { key: key.into(), code: code.into(), key_code, text: text.map(Into::into) });
    }
    if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u32>().ok()).filter(|n| (1..=12).contains(n)) {
        return Some(KeyDef { key: format!("F{n}"), code: format!("F{n}"), key_code: 111 + n, text: None });
    }
    if let Some(&(_, key, code, key_code)) = MODIFIER_KEYS.iter().find(|(names, ..)| names.contains(&lower.as_str())) {
        return Some(KeyDef { key: key.into(), code: code.into(), key_code, text: None });
    }
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => key_for_char(c).map(|(def, _)| def).or_else(|| layout_char(c)),
        _ => None,
    }
}

/// A printable character no US key produces (`é`, `ß`, `€`, `ж`): on a keyboard with that
/// layout it has a key of its own, so it is pressed as one, with no code (as Playwright
/// does), and inserts itself. Control characters are not keys.
fn layout_char(c: char) -> Option<KeyDef> {
    (!c.is_control() && !c.is_whitespace()).then(|| KeyDef {
        key: c.to_string(),
        code: String::new(),
        key_code: 0,
        text: Some(c.to_string()),
    })
}

/// Parses a key name or a `+`-joined combination. Names are case-insensitive
/// (`enter`, `Enter`, `ctrl+a`, `Control+Shift+Tab`); a literal plus is `+` or `Shift++`.
pub fn parse_key_combo(spec: &str) -> Result<KeyCombo, String> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err("empty key name".into());
    }
    // Split on '+' but keep a trailing "+" key (as in "Control++").
    let mut parts: Vec<&str> = spec.split('+').collect();
    if spec.ends_with("++") || spec == "+" {
        parts.retain(|p| !p.is_empty());
        parts.push("+");
    }
    let (last, modifier_names) = parts.split_last().ok_or("empty key name")?;
    let mut modifiers = Modifiers::default();
    for name in modifier_names {
        let lower = name.trim().to_ascii_lowercase();
        match MODIFIER_KEYS.iter().position(|(names, ..)| names.contains(&lower.as_str())) {
            Some(0) => modifiers.ctrl = true,
            Some(1) => modifiers.shift = true,
            Some(2) => modifiers.alt = true,
            Some(3) => modifiers.meta = true,
            _ => {
                return Err(format!("`{name}` is not a modifier; use Control, Shift, Alt or Meta"));
            }
        }
    }
    let mut key = named_key(last.trim()).ok_or_else(|| {
        format!("unknown key `{last}`; use a key name such as Enter, Tab, Escape, ArrowDown, PageDown, F5, or a single character")
    })?;
    // "Control+K" means the K key: it produces "k", or "K" with Shift, as on a keyboard.
    // A bare letter stays as written.
    if key.code.starts_with("Key") && !modifier_names.is_empty() {
        let case = if modifiers.shift { str::to_ascii_uppercase } else { str::to_ascii_lowercase };
        key.key = case(&key.key);
        key.text = key.text.as_deref().map(case);
    }
    Ok(KeyCombo { modifiers, key })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_with_aliases() {
        assert_eq!(parse_key_combo("enter").unwrap().key.key, "Enter");
        assert_eq!(parse_key_combo("Return").unwrap().key.key_code, 13);
        assert_eq!(parse_key_combo("tab").unwrap().key.code, "Tab");
        assert_eq!(parse_key_combo("space").unwrap().key.text.as_deref(), Some(" "));
        assert_eq!(parse_key_combo("down").unwrap().key.key, "ArrowDown");
        assert_eq!(parse_key_combo("f5").unwrap().key.key_code, 116);
        assert_eq!(parse_key_combo("ARROW_DOWN").unwrap().key.key, "ArrowDown");
        assert_eq!(parse_key_combo("page_up").unwrap().key.key, "PageUp");
        assert_eq!(parse_key_combo("_").unwrap().key.code, "Minus");
    }

    #[test]
    fn characters_beyond_the_us_layout_are_keys_that_insert_themselves() {
        for c in ["é", "ß", "€", "ж", "ñ"] {
            let key = parse_key_combo(c).unwrap().key;
            assert_eq!((key.key.as_str(), key.code.as_str(), key.text.as_deref()), (c, "", Some(c)));
        }
        assert!(parse_key_combo("Alt+é").unwrap().modifiers.alt);
        for not_a_key in ["\u{7}", "\u{a0}", "\u{200b}x", "éé"] {
            assert!(parse_key_combo(not_a_key).is_err(), "{not_a_key:?}");
        }
    }

    #[test]
    fn combinations_set_modifiers() {
        let combo = parse_key_combo("ctrl+Shift+a").unwrap();
        assert!(combo.modifiers.ctrl && combo.modifiers.shift && !combo.modifiers.alt);
        assert_eq!(combo.modifiers.cdp_mask(), 2 | 8);
        assert_eq!(combo.key.code, "KeyA");
        assert_eq!(combo.key.key, "A", "with Shift the letter is upper case");
        assert_eq!(parse_key_combo("Control+K").unwrap().key.key, "k", "without Shift it is lower case");
        assert_eq!(parse_key_combo("Control++").unwrap().key.code, "Equal");
        assert_eq!(parse_key_combo("+").unwrap().key.key, "+");
    }

    #[test]
    fn bad_names_are_explained() {
        assert!(parse_key_combo("").is_err());
        assert!(parse_key_combo("entr").unwrap_err().contains("unknown key `entr`"));
        assert!(parse_key_combo("hyper+a").unwrap_err().contains("not a modifier"));
        assert!(parse_key_combo("ctrl+").is_err());
    }

    #[test]
    fn characters_map_to_us_layout_keys() {
        assert_eq!(
            key_for_char('A'),
            Some((KeyDef { key: "A".into(), code: "KeyA".into(), key_code: 65, text: Some("A".into()) }, true))
        );
        assert_eq!(key_for_char('!').unwrap().0.code, "Digit1");
        assert_eq!(
            key_for_char('"').unwrap(),
            (KeyDef { key: "\"".into(), code: "Quote".into(), key_code: 222, text: Some("\"".into()) }, true)
        );
        assert_eq!(key_for_char('é'), None);
    }
}
