//! Which key, with or without Shift, types each character on the X server's keyboard map.
//!
//! enigo looks a character up on each key's unshifted level only. For anything else (`>`,
//! `:`, `"`, `!`, capitals) it binds the character to a spare keycode and presses that.
//! Every binding sends all clients a `MappingNotify`, and a client that reads the key press
//! before the notify still sees the spare key's old meaning: under load characters are lost
//! or doubled (typing all of printable ASCII into an xterm on a busy machine came out wrong
//! in 15 runs of 15). Pressing Shift with the key that carries the character changes no
//! mapping.

use std::collections::HashMap;

use xkeysym::Keysym;

/// The characters on one key's unshifted and shifted levels of the first group. A key that
/// lists one letter has its lower case unshifted and its upper case shifted (the core
/// protocol's rule; xkeysym 0.2's own `keysym()` swaps the two).
fn levels(row: &[u32]) -> [Option<char>; 2] {
    let char_of = |raw: u32| {
        let sym = Keysym::new(raw);
        // Keypad keys are left out: a terminal in keypad application mode sends an escape
        // sequence for them, not the character.
        if raw == 0 || sym.is_keypad_key() {
            return None;
        }
        sym.key_char().filter(|c| !c.is_control())
    };
    let first = row.first().copied().and_then(char_of);
    match row.get(1).copied().filter(|&raw| raw != 0) {
        Some(raw) => [first, char_of(raw)],
        None => {
            let one = |cs: &mut dyn Iterator<Item = char>| {
                let c = cs.next();
                if cs.next().is_none() { c } else { None }
            };
            match first {
                Some(c) => [one(&mut c.to_lowercase()), one(&mut c.to_uppercase())],
                None => [None, None],
            }
        }
    }
}

/// One key press that types a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stroke {
    pub keycode: u8,
    pub shift: bool,
}

/// The printable characters the keyboard map offers on its first group's two levels.
#[derive(Debug, Default)]
pub(crate) struct KeyMap {
    strokes: HashMap<char, Stroke>,
}

impl KeyMap {
    /// Reads a `GetKeyboardMapping` reply: `keysyms` holds `per_keycode` keysyms for each
    /// keycode from `min_keycode` on.
    pub(crate) fn from_mapping(min_keycode: u8, per_keycode: u8, keysyms: &[u32]) -> KeyMap {
        let mut strokes = HashMap::new();
        let per = usize::from(per_keycode);
        if per == 0 {
            return KeyMap { strokes };
        }
        let keys: Vec<(u8, [Option<char>; 2])> =
            keysyms.chunks_exact(per).zip(min_keycode..=u8::MAX).map(|(row, keycode)| (keycode, levels(row))).collect();
        // Every key's unshifted level first, so a character on two keys is typed without Shift.
        for level in 0..2 {
            for (keycode, chars) in &keys {
                if let Some(c) = chars[level] {
                    strokes.entry(c).or_insert(Stroke { keycode: *keycode, shift: level == 1 });
                }
            }
        }
        KeyMap { strokes }
    }

    /// The key press for `c`, if the map has one.
    pub(crate) fn stroke(&self, c: char) -> Option<Stroke> {
        self.strokes.get(&c).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(c: char) -> u32 {
        Keysym::from_char(c).raw()
    }

    /// A slice of a US layout: keycodes 10 (`1 !`), 11 (`a`, capital implied), 12 (`. >`),
    /// 13 (`KP_Multiply`), 14 (`Return`), 15 (`! exclam` again, unshifted).
    fn us() -> KeyMap {
        let none = Keysym::NoSymbol.raw();
        let keysyms = [
            sym('1'),
            sym('!'),
            sym('a'),
            none,
            sym('.'),
            sym('>'),
            Keysym::KP_Multiply.raw(),
            none,
            Keysym::Return.raw(),
            none,
            sym('!'),
            none,
        ];
        KeyMap::from_mapping(10, 2, &keysyms)
    }

    #[test]
    fn shifted_characters_are_shift_and_their_key() {
        let map = us();
        assert_eq!(map.stroke('>'), Some(Stroke { keycode: 12, shift: true }));
        assert_eq!(map.stroke('.'), Some(Stroke { keycode: 12, shift: false }));
        // A letter key lists only its lower case; its upper case is the shifted level.
        assert_eq!(map.stroke('A'), Some(Stroke { keycode: 11, shift: true }));
        assert_eq!(map.stroke('a'), Some(Stroke { keycode: 11, shift: false }));
    }

    #[test]
    fn an_unshifted_key_wins_over_a_shifted_one() {
        assert_eq!(us().stroke('!'), Some(Stroke { keycode: 15, shift: false }));
    }

    #[test]
    fn keypad_control_and_missing_characters_have_no_stroke() {
        let map = us();
        assert_eq!(map.stroke('*'), None, "keypad keys are left to enigo");
        assert_eq!(map.stroke('\r'), None);
        assert_eq!(map.stroke('é'), None);
    }

    #[test]
    fn an_empty_or_ragged_reply_is_an_empty_map() {
        assert_eq!(KeyMap::from_mapping(8, 0, &[]).stroke('a'), None);
        assert_eq!(KeyMap::from_mapping(8, 2, &[sym('a')]).stroke('a'), None);
    }
}
