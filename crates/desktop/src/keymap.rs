//! Which key, with or without Shift, types each character on the X server's keyboard map.
//!
//! enigo looks a character up on each key's unshifted level only. For anything else (`>`,
//! `:`, `"`, `!`, capitals) it binds the character to a spare keycode and presses that,
//! one character at a time, rebinding spare keycodes as it goes. Every binding sends all
//! clients a `MappingNotify`, and a client picks the change up only when it next reads a
//! key, which may be after that key has been bound again: under load characters are lost
//! or doubled (typing all of printable ASCII into an xterm on a busy machine came out wrong
//! in 15 runs of 15). Pressing Shift with the key that carries the character changes no
//! mapping.
//!
//! A character the layout lacks (`é` on a US map) needs a binding all the same. The driver
//! binds all of a text's missing characters to spare keycodes at once, waits, types, waits
//! and unbinds them ([`KeyMap::pieces`], [`KeyMap::extended`]): no key changes meaning
//! while a program may still be reading it.

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

/// The printable characters the keyboard map offers on its first group's two levels, and
/// the keycodes it leaves unbound.
#[derive(Debug, Default, Clone)]
pub(crate) struct KeyMap {
    strokes: HashMap<char, Stroke>,
    spare: Vec<u8>,
    /// The mapping as read: `per_keycode` keysyms for each keycode from `min_keycode` on.
    min_keycode: u8,
    per_keycode: u8,
    keysyms: Vec<u32>,
}

/// One `ChangeKeyboardMapping` over the keycodes `first..first + count`: a single request,
/// so programs get one `MappingNotify` however many keys change (a window manager re-grabs
/// its key bindings on each; a hundred of them held openbox up for seconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Remap {
    pub first: u8,
    pub count: u8,
    pub per_keycode: u8,
    pub keysyms: Vec<u32>,
}

impl KeyMap {
    /// Reads a `GetKeyboardMapping` reply: `keysyms` holds `per_keycode` keysyms for each
    /// keycode from `min_keycode` on.
    pub(crate) fn from_mapping(min_keycode: u8, per_keycode: u8, keysyms: &[u32]) -> KeyMap {
        let mut strokes = HashMap::new();
        let per = usize::from(per_keycode);
        if per == 0 {
            return KeyMap::default();
        }
        let rows = || keysyms.chunks_exact(per).zip(min_keycode..=u8::MAX);
        let spare = rows().filter(|(row, _)| row.iter().all(|&sym| sym == 0)).map(|(_, keycode)| keycode).collect();
        let keys: Vec<(u8, [Option<char>; 2])> = rows().map(|(row, keycode)| (keycode, levels(row))).collect();
        // Every key's unshifted level first, so a character on two keys is typed without Shift.
        for level in 0..2 {
            for (keycode, chars) in &keys {
                if let Some(c) = chars[level] {
                    strokes.entry(c).or_insert(Stroke { keycode: *keycode, shift: level == 1 });
                }
            }
        }
        KeyMap { strokes, spare, min_keycode, per_keycode, keysyms: keysyms.to_vec() }
    }

    /// The key press for `c`, if the map has one.
    pub(crate) fn stroke(&self, c: char) -> Option<Stroke> {
        self.strokes.get(&c).copied()
    }

    /// `text` cut into pieces, each with the characters it needs that the map lacks, paired
    /// with the spare keycodes to bind them to: a new piece starts when the spare keycodes
    /// run out. Without spare keycodes, one piece with no bindings (enigo binds its own).
    pub(crate) fn pieces(&self, text: &str) -> Vec<(String, Vec<(char, u8)>)> {
        let mut pieces = Vec::new();
        let (mut piece, mut missing) = (String::new(), Vec::<char>::new());
        for c in text.chars() {
            let needs = !self.spare.is_empty() && !c.is_control() && self.stroke(c).is_none() && !missing.contains(&c);
            if needs && missing.len() == self.spare.len() {
                let bound = missing.drain(..).zip(self.spare.iter().copied()).collect();
                pieces.push((std::mem::take(&mut piece), bound));
            }
            if needs {
                missing.push(c);
            }
            piece.push(c);
        }
        if !piece.is_empty() {
            pieces.push((piece, missing.into_iter().zip(self.spare.iter().copied()).collect()));
        }
        pieces
    }

    /// The change that binds each `bound` character to its keycode (on both levels), and
    /// the one that puts the keys in between back as they were read (a layout switched
    /// since the driver connected would be partly switched back).
    pub(crate) fn remaps(&self, bound: &[(char, u8)]) -> Option<(Remap, Remap)> {
        let lo = bound.iter().map(|&(_, k)| k).min()?;
        let hi = bound.iter().map(|&(_, k)| k).max()?;
        let per = usize::from(self.per_keycode);
        let start = usize::from(lo.checked_sub(self.min_keycode)?) * per;
        let end = (usize::from(hi - self.min_keycode) + 1) * per;
        let before = self.keysyms.get(start..end)?.to_vec();
        let mut after = before.clone();
        for &(c, keycode) in bound {
            let row = usize::from(keycode - lo) * per;
            let sym = Keysym::from_char(c).raw();
            after[row..row + per].fill(0);
            after[row] = sym;
            if per > 1 {
                after[row + 1] = sym;
            }
        }
        let remap = |keysyms| Remap { first: lo, count: hi - lo + 1, per_keycode: self.per_keycode, keysyms };
        Some((remap(after), remap(before)))
    }

    /// This map with `bound` characters on their keycodes' unshifted level.
    pub(crate) fn extended(&self, bound: &[(char, u8)]) -> KeyMap {
        let mut map = self.clone();
        for &(c, keycode) in bound {
            map.strokes.insert(c, Stroke { keycode, shift: false });
            map.spare.retain(|&k| k != keycode);
        }
        map
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
    fn missing_characters_get_spare_keycodes_once_each() {
        let none = Keysym::NoSymbol.raw();
        let keysyms = [sym('a'), none, none, none, none, none, sym('b'), none];
        let map = KeyMap::from_mapping(20, 2, &keysyms);
        let piece = |text: &str, bound: &[(char, u8)]| (text.to_owned(), bound.to_vec());
        // Keycodes 21 and 22 are unbound; `a`, `A` and the newline need no binding.
        assert_eq!(map.pieces("aAé\néa"), vec![piece("aAé\néa", &[('é', 21)])]);
        assert_eq!(map.pieces("bab"), vec![piece("bab", &[])]);
        // A third missing character starts a new piece, which binds the spares afresh.
        assert_eq!(
            map.pieces("é€é ü€"),
            vec![piece("é€é", &[('é', 21), ('€', 22)]), piece(" ü", &[(' ', 21), ('ü', 22)]), piece("€", &[('€', 21)])]
        );
        assert_eq!(map.pieces(""), vec![]);
        let wider = map.extended(&[('é', 21)]);
        assert_eq!(wider.stroke('é'), Some(Stroke { keycode: 21, shift: false }));
        assert_eq!(wider.pieces("€"), vec![piece("€", &[('€', 22)])], "a bound keycode is no longer spare");
        assert_eq!(map.stroke('é'), None, "the map itself is unchanged");
    }

    #[test]
    fn one_remap_binds_every_spare_and_one_puts_them_back() {
        let none = Keysym::NoSymbol.raw();
        // Keycodes 20 (`a`), 21 (spare), 22 (`b`), 23 (spare).
        let keysyms = [sym('a'), none, none, none, sym('b'), none, none, none];
        let map = KeyMap::from_mapping(20, 2, &keysyms);
        let (_, bound) = map.pieces("é€").pop().unwrap();
        assert_eq!(bound, vec![('é', 21), ('€', 23)]);
        let (bind, unbind) = map.remaps(&bound).unwrap();
        let (e, euro) = (Keysym::from_char('é').raw(), Keysym::from_char('€').raw());
        assert_eq!(
            bind,
            Remap { first: 21, count: 3, per_keycode: 2, keysyms: vec![e, e, sym('b'), none, euro, euro] }
        );
        assert_eq!(
            unbind,
            Remap { first: 21, count: 3, per_keycode: 2, keysyms: vec![none, none, sym('b'), none, none, none] }
        );
        assert_eq!(map.remaps(&[]), None);
    }

    #[test]
    fn without_spare_keycodes_nothing_is_bound() {
        let map = KeyMap::from_mapping(20, 2, &[sym('a'), sym('A')]);
        assert_eq!(map.pieces("aé€"), vec![("aé€".to_owned(), vec![])]);
    }

    #[test]
    fn an_empty_or_ragged_reply_is_an_empty_map() {
        assert_eq!(KeyMap::from_mapping(8, 0, &[]).stroke('a'), None);
        assert_eq!(KeyMap::from_mapping(8, 2, &[sym('a')]).stroke('a'), None);
    }
}
