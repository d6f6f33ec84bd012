//! Real input events over CDP: what a person's mouse and keyboard would send, so pages see
//! trusted `pointerdown`/`mousedown`/`click` and `keydown`/`input`/`keyup` events.

use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, DispatchMouseEventParams, DispatchMouseEventType, InsertTextParams,
    MouseButton as CdpButton,
};
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::error::CdpError;
use chromiumoxide::page::Page;
use futures::TryFutureExt;
use futures::future::BoxFuture;
use statewright_workflow::MouseButton;
use statewright_workflow::keys::{KeyCombo, KeyDef, Modifiers, key_for_char};

type Result<T> = std::result::Result<T, String>;

/// How long the page may take to handle the input events of one action: Chromium answers
/// once the page's own handlers have run, so a page whose script never yields would hold a
/// click for the CDP client's 30 s and then fail it as "Request timed out".
const INPUT_BUDGET: Duration = Duration::from_secs(10);
/// How long the page's main frame gets to answer when the input was not acknowledged.
const ALIVE_BUDGET: Duration = Duration::from_secs(1);

/// One input event, as CDP takes it.
enum Event {
    Mouse(DispatchMouseEventParams),
    Key(DispatchKeyEventParams),
    Text(InsertTextParams),
}

/// Sends `events` in order without waiting for each to be handled before sending the next:
/// the browser handles a session's commands in order anyway, and a click is then one round
/// trip instead of three (the time between a target appearing and its click).
///
/// Events not acknowledged within [`INPUT_BUDGET`] are still on their way: when the page's
/// main frame answers at once, what is busy is a frame of it (a consent banner's script
/// handling the click at length), and the action counts as done for the state's check to
/// judge. A page that answers nothing hangs, and that is an error.
async fn send(page: &Page, events: Vec<Event>) -> Result<()> {
    let sent = events.into_iter().map(|event| -> BoxFuture<'_, std::result::Result<(), CdpError>> {
        match event {
            Event::Mouse(params) => Box::pin(page.execute(params).map_ok(drop)),
            Event::Key(params) => Box::pin(page.execute(params).map_ok(drop)),
            Event::Text(params) => Box::pin(page.execute(params).map_ok(drop)),
        }
    });
    match tokio::time::timeout(INPUT_BUDGET, futures::future::try_join_all(sent)).await {
        Ok(sent) => sent.map(drop).map_err(|e| e.to_string()),
        Err(_) if answers(page).await => {
            tracing::warn!("the page took more than {INPUT_BUDGET:?} over the input, but answers: going on");
            Ok(())
        }
        Err(_) => {
            Err(format!("the page did not take the input within {INPUT_BUDGET:?}: a script on it is busy or it hangs"))
        }
    }
}

/// Whether the page's main frame evaluates a trivial expression within [`ALIVE_BUDGET`].
async fn answers(page: &Page) -> bool {
    let asked = page.execute(EvaluateParams::new("1"));
    matches!(tokio::time::timeout(ALIVE_BUDGET, asked).await, Ok(Ok(_)))
}

fn cdp_button(button: MouseButton) -> (CdpButton, i64) {
    match button {
        MouseButton::Left => (CdpButton::Left, 1),
        MouseButton::Right => (CdpButton::Right, 2),
        MouseButton::Middle => (CdpButton::Middle, 4),
    }
}

fn mouse(kind: DispatchMouseEventType, x: f64, y: f64, button: Option<MouseButton>, count: i64) -> Result<Event> {
    let mut params = DispatchMouseEventParams::builder().r#type(kind).x(x).y(y);
    if let Some(button) = button {
        let (b, mask) = cdp_button(button);
        params = params.button(b).buttons(mask).click_count(count);
    }
    params.build().map(Event::Mouse)
}

pub async fn move_to(page: &Page, x: f64, y: f64) -> Result<()> {
    send(page, vec![mouse(DispatchMouseEventType::MouseMoved, x, y, None, 0)?]).await
}

/// Moves, then presses and releases `count` times (a double click is two clicks whose
/// second has click count 2, as browsers report it).
pub async fn click(page: &Page, x: f64, y: f64, button: MouseButton, count: u32) -> Result<()> {
    let mut events = vec![mouse(DispatchMouseEventType::MouseMoved, x, y, None, 0)?];
    events.extend(presses(x, y, button, count)?);
    send(page, events).await
}

/// As [`click`], with the pointer already at the point: a move there again is one more
/// event the page waits a frame for (moves are dispatched with animation frames).
pub async fn click_here(page: &Page, x: f64, y: f64, button: MouseButton, count: u32) -> Result<()> {
    send(page, presses(x, y, button, count)?).await
}

fn presses(x: f64, y: f64, button: MouseButton, count: u32) -> Result<Vec<Event>> {
    let mut events = Vec::new();
    for n in 1..=i64::from(count) {
        events.push(mouse(DispatchMouseEventType::MousePressed, x, y, Some(button), n)?);
        events.push(mouse(DispatchMouseEventType::MouseReleased, x, y, Some(button), n)?);
    }
    Ok(events)
}

/// A drag's three parts, with the left button held between them: pressing at a point,
/// moving while held (pages see `buttons` 1, as in a person's drag), letting go.
pub async fn press_at(page: &Page, x: f64, y: f64) -> Result<()> {
    let events = vec![
        mouse(DispatchMouseEventType::MouseMoved, x, y, None, 0)?,
        mouse(DispatchMouseEventType::MousePressed, x, y, Some(MouseButton::Left), 1)?,
    ];
    send(page, events).await
}

pub async fn move_held(page: &Page, x: f64, y: f64) -> Result<()> {
    send(page, vec![mouse(DispatchMouseEventType::MouseMoved, x, y, Some(MouseButton::Left), 0)?]).await
}

pub async fn release(page: &Page, x: f64, y: f64) -> Result<()> {
    send(page, vec![mouse(DispatchMouseEventType::MouseReleased, x, y, Some(MouseButton::Left), 1)?]).await
}

fn key(kind: DispatchKeyEventType, key: &KeyDef, modifiers: Modifiers, with_text: bool) -> Result<Event> {
    let mut params = DispatchKeyEventParams::builder()
        .r#type(kind)
        .key(key.key.clone())
        .code(key.code.clone())
        .windows_virtual_key_code(i64::from(key.key_code))
        .native_virtual_key_code(i64::from(key.key_code))
        .modifiers(modifiers.cdp_mask());
    if with_text && let Some(text) = &key.text {
        params = params.text(text.clone()).unmodified_text(text.clone());
    }
    params.build().map(Event::Key)
}

/// Presses a key or combination: modifiers down, key down and up, modifiers up.
pub async fn press(page: &Page, combo: &KeyCombo) -> Result<()> {
    let m = combo.modifiers;
    let held: Vec<KeyDef> = [(m.ctrl, "Control"), (m.shift, "Shift"), (m.alt, "Alt"), (m.meta, "Meta")]
        .into_iter()
        .filter(|(on, _)| *on)
        .filter_map(|(_, name)| statewright_workflow::keys::parse_key_combo(name).ok().map(|c| c.key))
        .collect();
    let mut events = Vec::new();
    for held_key in &held {
        events.push(key(DispatchKeyEventType::RawKeyDown, held_key, m, false)?);
    }
    // With Control, Alt or Meta held a key is a shortcut and inserts no text.
    let inserts_text = !(m.ctrl || m.alt || m.meta);
    let kind = if inserts_text && combo.key.text.is_some() {
        DispatchKeyEventType::KeyDown
    } else {
        DispatchKeyEventType::RawKeyDown
    };
    events.push(key(kind, &combo.key, m, inserts_text)?);
    events.push(key(DispatchKeyEventType::KeyUp, &combo.key, m, false)?);
    for held_key in held.iter().rev() {
        events.push(key(DispatchKeyEventType::KeyUp, held_key, Modifiers::default(), false)?);
    }
    send(page, events).await
}

/// Types `text` into the focused element. All but the last character go in as one text
/// insertion (an `input` event, fast); the last is a real key press, so pages that listen
/// for `keydown`/`keyup` (autocomplete widgets, say) see a keystroke with the full value.
pub async fn type_text(page: &Page, text: &str) -> Result<()> {
    let Some(last) = text.chars().last() else { return Ok(()) };
    let head = &text[..text.len() - last.len_utf8()];
    let mut events = Vec::new();
    if !head.is_empty() {
        events.push(Event::Text(InsertTextParams::new(head)));
    }
    events.extend(keystroke(last)?);
    send(page, events).await
}

/// Types `text` a key press for each character, as a person does: for a page that takes
/// keys itself (a terminal that adds each `keydown`'s key to its prompt and empties the
/// field it listens on), which a text insertion never reaches.
pub async fn press_each(page: &Page, text: &str) -> Result<()> {
    let mut events = Vec::new();
    for c in text.chars() {
        events.extend(keystroke(c)?);
    }
    send(page, events).await
}

/// A character's key down and up; a character no key gives (or a line break, which as a
/// key would be Enter and submit a form) goes in as text.
fn keystroke(c: char) -> Result<Vec<Event>> {
    Ok(match key_for_char(c).filter(|(def, _)| def.text.is_some() && c != '\n' && c != '\r') {
        Some((def, shift)) => {
            let modifiers = Modifiers { shift, ..Modifiers::default() };
            vec![
                key(DispatchKeyEventType::KeyDown, &def, modifiers, true)?,
                key(DispatchKeyEventType::KeyUp, &def, modifiers, false)?,
            ]
        }
        None => vec![Event::Text(InsertTextParams::new(c.to_string()))],
    })
}
