//! Mouse and keyboard input through enigo's XTest backend. The enigo handle lives on one
//! dedicated thread: it holds an X connection and keyboard-mapping state that must not be
//! shared, and its calls (and our pacing sleeps) block. The async side sends it jobs.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use enigo::{Axis, Button, Coordinate, Direction, Enigo, Key, Keyboard, Mouse, Settings};
use statewright_workflow::keys::{KeyDef, parse_key_combo};
use tokio::sync::oneshot;

use crate::error::{DesktopError, DesktopResult};
use crate::keymap::{KeyMap, Stroke};
use crate::types::MouseButton;

type Job = Box<dyn FnOnce(&mut Enigo) -> DesktopResult<()> + Send>;

/// A handle to the input thread. Dropping it ends the thread (enigo then releases any
/// keys still held).
pub(crate) struct InputThread {
    tx: mpsc::Sender<(Job, oneshot::Sender<DesktopResult<()>>)>,
}

fn input_err(e: impl std::fmt::Display) -> DesktopError {
    DesktopError::Input(e.to_string())
}

impl InputThread {
    /// Starts the thread and waits until enigo has connected. Blocks: call it from
    /// `spawn_blocking`.
    pub(crate) fn start(display: String) -> DesktopResult<InputThread> {
        let (tx, rx) = mpsc::channel::<(Job, oneshot::Sender<DesktopResult<()>>)>();
        let (ready_tx, ready_rx) = mpsc::channel();
        thread::Builder::new()
            .name("statewright-input".into())
            .spawn(move || {
                let settings = Settings { x11_display: Some(display.clone()), ..Settings::default() };
                let mut enigo = match Enigo::new(&settings) {
                    Ok(e) => e,
                    Err(e) => {
                        let detail = format!("enigo cannot open {display}: {e}");
                        let _ = ready_tx.send(Err(DesktopError::NoDisplay { detail }));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(()));
                while let Ok((job, reply)) = rx.recv() {
                    let _ = reply.send(job(&mut enigo));
                }
            })
            .map_err(|e| DesktopError::Input(format!("cannot start the input thread: {e}")))?;
        ready_rx.recv().map_err(|_| DesktopError::Input("the input thread exited while starting".into()))??;
        Ok(InputThread { tx })
    }

    pub(crate) async fn run(
        &self,
        job: impl FnOnce(&mut Enigo) -> DesktopResult<()> + Send + 'static,
    ) -> DesktopResult<()> {
        let (reply_tx, reply_rx) = oneshot::channel();
        self.tx
            .send((Box::new(job), reply_tx))
            .map_err(|_| DesktopError::Input("the input thread has stopped".into()))?;
        reply_rx.await.map_err(|_| DesktopError::Input("the input thread stopped mid-action".into()))?
    }
}

fn button(b: MouseButton) -> Button {
    match b {
        MouseButton::Left => Button::Left,
        MouseButton::Middle => Button::Middle,
        MouseButton::Right => Button::Right,
    }
}

pub(crate) fn move_to(e: &mut Enigo, x: i32, y: i32) -> DesktopResult<()> {
    e.move_mouse(x, y, Coordinate::Abs).map_err(input_err)
}

pub(crate) fn click(e: &mut Enigo, x: i32, y: i32, b: MouseButton, count: u32) -> DesktopResult<()> {
    move_to(e, x, y)?;
    for _ in 0..count.max(1) {
        e.button(button(b), Direction::Click).map_err(input_err)?;
    }
    Ok(())
}

/// Press at `from`, move in `steps` increments (toolkits ignore a drag that arrives as
/// one jump), release at `to`.
pub(crate) fn drag(e: &mut Enigo, from: (i32, i32), to: (i32, i32), b: MouseButton, steps: u32) -> DesktopResult<()> {
    move_to(e, from.0, from.1)?;
    e.button(button(b), Direction::Press).map_err(input_err)?;
    let steps = steps.max(1) as i32;
    let result = (1..=steps).try_for_each(|i| {
        thread::sleep(Duration::from_millis(10));
        move_to(e, from.0 + (to.0 - from.0) * i / steps, from.1 + (to.1 - from.1) * i / steps)
    });
    thread::sleep(Duration::from_millis(10));
    // Release even when a move failed, or the button stays down for the whole session.
    let released = e.button(button(b), Direction::Release).map_err(input_err);
    result.and(released)
}

/// Scrolls by wheel notches: positive `dy` scrolls down, positive `dx` right.
pub(crate) fn scroll(e: &mut Enigo, x: i32, y: i32, dx: i32, dy: i32) -> DesktopResult<()> {
    move_to(e, x, y)?;
    if dy != 0 {
        e.scroll(dy, Axis::Vertical).map_err(input_err)?;
    }
    if dx != 0 {
        e.scroll(dx, Axis::Horizontal).map_err(input_err)?;
    }
    Ok(())
}

/// Types text. Newlines and tabs become Enter and Tab; a character on the keyboard map is
/// its key, with Shift when it is on the shifted level (see [`KeyMap`] for why enigo's own
/// lookup is not used for those). Other characters go through enigo, which binds a spare
/// keycode to them.
pub(crate) fn type_text(e: &mut Enigo, keys: &KeyMap, text: &str) -> DesktopResult<()> {
    for c in text.chars() {
        match (c, keys.stroke(c)) {
            ('\n' | '\r', _) => e.key(Key::Return, Direction::Click),
            ('\t', _) => e.key(Key::Tab, Direction::Click),
            (_, Some(Stroke { keycode, shift: true })) => {
                e.key(Key::Shift, Direction::Press).map_err(input_err)?;
                let r = e.raw(keycode.into(), Direction::Click);
                e.key(Key::Shift, Direction::Release).map_err(input_err)?;
                r
            }
            (_, Some(Stroke { keycode, shift: false })) => e.raw(keycode.into(), Direction::Click),
            (c, None) => e.key(Key::Unicode(c), Direction::Click),
        }
        .map_err(input_err)?;
    }
    Ok(())
}

/// A parsed key combination: modifiers to hold, then the key to tap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Combo {
    pub modifiers: Vec<Key>,
    pub key: Key,
}

/// Parses `Enter`, `Control+Shift+T`, `alt+F4`… with the workflow's key grammar and maps
/// its DOM key names to enigo keys.
pub(crate) fn parse_combo(spec: &str) -> DesktopResult<Combo> {
    let combo = parse_key_combo(spec).map_err(|e| DesktopError::Invalid(format!("key `{spec}`: {e}")))?;
    let m = combo.modifiers;
    let modifiers: Vec<Key> = [(m.ctrl, Key::Control), (m.shift, Key::Shift), (m.alt, Key::Alt), (m.meta, Key::Meta)]
        .into_iter()
        .filter_map(|(on, k)| on.then_some(k))
        .collect();
    let key = enigo_key(&combo.key, !modifiers.is_empty())
        .ok_or_else(|| DesktopError::Invalid(format!("key `{spec}` has no X11 equivalent")))?;
    Ok(Combo { modifiers, key })
}

fn enigo_key(def: &KeyDef, with_modifiers: bool) -> Option<Key> {
    Some(match def.key.as_str() {
        "Enter" => Key::Return,
        "Tab" => Key::Tab,
        " " => Key::Space,
        "Escape" => Key::Escape,
        "Backspace" => Key::Backspace,
        "Delete" => Key::Delete,
        "Insert" => Key::Insert,
        "ArrowUp" => Key::UpArrow,
        "ArrowDown" => Key::DownArrow,
        "ArrowLeft" => Key::LeftArrow,
        "ArrowRight" => Key::RightArrow,
        "Home" => Key::Home,
        "End" => Key::End,
        "PageUp" => Key::PageUp,
        "PageDown" => Key::PageDown,
        "Control" => Key::Control,
        "Shift" => Key::Shift,
        "Alt" => Key::Alt,
        "Meta" => Key::Meta,
        "F1" => Key::F1,
        "F2" => Key::F2,
        "F3" => Key::F3,
        "F4" => Key::F4,
        "F5" => Key::F5,
        "F6" => Key::F6,
        "F7" => Key::F7,
        "F8" => Key::F8,
        "F9" => Key::F9,
        "F10" => Key::F10,
        "F11" => Key::F11,
        "F12" => Key::F12,
        other => {
            let mut chars = other.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            // With modifiers, a letter means its key (Shift is already held when wanted):
            // lowercase keysyms sit on every keyboard's base level.
            if with_modifiers && c.is_ascii_alphabetic() {
                Key::Unicode(c.to_ascii_lowercase())
            } else {
                Key::Unicode(c)
            }
        }
    })
}

/// Holds the modifiers, taps the key, and lets go. A character key on the keyboard map is
/// pressed as its key, with Shift added when the character is on the shifted level (`?`
/// is Shift and `/` on a US layout), as in [`type_text`].
pub(crate) fn press_combo(e: &mut Enigo, keys: &KeyMap, combo: &Combo) -> DesktopResult<()> {
    let stroke = match combo.key {
        Key::Unicode(c) => keys.stroke(c),
        _ => None,
    };
    let mut modifiers = combo.modifiers.clone();
    if stroke.is_some_and(|s| s.shift) && !modifiers.contains(&Key::Shift) {
        modifiers.push(Key::Shift);
    }
    let mut held = Vec::new();
    let mut result = Ok(());
    for m in modifiers {
        match e.key(m, Direction::Press) {
            Ok(()) => held.push(m),
            Err(err) => {
                result = Err(input_err(err));
                break;
            }
        }
    }
    if result.is_ok() {
        result = match stroke {
            Some(s) => e.raw(s.keycode.into(), Direction::Click),
            None => e.key(combo.key, Direction::Click),
        }
        .map_err(input_err);
    }
    // Always let go of the modifiers, in reverse order.
    for m in held.into_iter().rev() {
        let released = e.key(m, Direction::Release).map_err(input_err);
        result = result.and(released);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combos_map_to_enigo_keys() {
        assert_eq!(parse_combo("Enter").unwrap(), Combo { modifiers: vec![], key: Key::Return });
        assert_eq!(parse_combo("enter").unwrap().key, Key::Return);
        let c = parse_combo("Control+Shift+T").unwrap();
        assert_eq!(c.modifiers, vec![Key::Control, Key::Shift]);
        assert_eq!(c.key, Key::Unicode('t'));
        assert_eq!(parse_combo("alt+f4").unwrap(), Combo { modifiers: vec![Key::Alt], key: Key::F4 });
        assert_eq!(parse_combo("ArrowDown").unwrap().key, Key::DownArrow);
        assert_eq!(parse_combo("x").unwrap().key, Key::Unicode('x'));
        assert_eq!(parse_combo("Space").unwrap().key, Key::Space);
    }

    #[test]
    fn bad_key_names_are_invalid() {
        let err = parse_combo("Hyper+Q").unwrap_err();
        assert!(matches!(err, DesktopError::Invalid(ref m) if m.contains("Hyper")), "{err}");
        assert!(matches!(parse_combo("").unwrap_err(), DesktopError::Invalid(_)));
    }
}
