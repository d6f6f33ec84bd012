//! Real input events over CDP: what a person's mouse and keyboard would send, so pages see
//! trusted `pointerdown`/`mousedown`/`click` and `keydown`/`input`/`keyup` events.

use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, DispatchMouseEventParams, DispatchMouseEventType, InsertTextParams,
    MouseButton as CdpButton,
};
use chromiumoxide::page::Page;
use statewright_workflow::MouseButton;
use statewright_workflow::keys::{KeyCombo, KeyDef, Modifiers, key_for_char};

type Result<T> = std::result::Result<T, String>;

/// How long the page may take to handle one input event: Chromium answers once the page's
/// own handlers have run, so a page whose script never yields would hold a click for the
/// CDP client's 30 s and then fail it as "Request timed out".
const INPUT_BUDGET: Duration = Duration::from_secs(10);

/// `sending`, failing with a clear reason when the page does not take it in time.
async fn delivered<T, E: std::fmt::Display>(sending: impl Future<Output = std::result::Result<T, E>>) -> Result<T> {
    match tokio::time::timeout(INPUT_BUDGET, sending).await {
        Ok(sent) => sent.map_err(|e| e.to_string()),
        Err(_) => {
            Err(format!("the page did not take the input within {INPUT_BUDGET:?}: a script on it is busy or it hangs"))
        }
    }
}

fn cdp_button(button: MouseButton) -> (CdpButton, i64) {
    match button {
        MouseButton::Left => (CdpButton::Left, 1),
        MouseButton::Right => (CdpButton::Right, 2),
        MouseButton::Middle => (CdpButton::Middle, 4),
    }
}

fn mouse(
    kind: DispatchMouseEventType,
    x: f64,
    y: f64,
    button: Option<MouseButton>,
    count: i64,
) -> Result<DispatchMouseEventParams> {
    let mut params = DispatchMouseEventParams::builder().r#type(kind).x(x).y(y);
    if let Some(button) = button {
        let (b, mask) = cdp_button(button);
        params = params.button(b).buttons(mask).click_count(count);
    }
    params.build()
}

/// Sends mouse events in order without waiting for each to be handled before sending the
/// next: the browser handles a session's commands in order anyway, and a click is then
/// one round trip instead of three (the time between a target appearing and its click).
async fn send_mouse(page: &Page, events: Vec<DispatchMouseEventParams>) -> Result<()> {
    let sent = events.into_iter().map(|params| page.execute(params));
    delivered(futures::future::try_join_all(sent)).await?;
    Ok(())
}

pub async fn move_to(page: &Page, x: f64, y: f64) -> Result<()> {
    send_mouse(page, vec![mouse(DispatchMouseEventType::MouseMoved, x, y, None, 0)?]).await
}

/// Moves, then presses and releases `count` times (a double click is two clicks whose
/// second has click count 2, as browsers report it).
pub async fn click(page: &Page, x: f64, y: f64, button: MouseButton, count: u32) -> Result<()> {
    let mut events = vec![mouse(DispatchMouseEventType::MouseMoved, x, y, None, 0)?];
    for n in 1..=i64::from(count) {
        events.push(mouse(DispatchMouseEventType::MousePressed, x, y, Some(button), n)?);
        events.push(mouse(DispatchMouseEventType::MouseReleased, x, y, Some(button), n)?);
    }
    send_mouse(page, events).await
}

/// A drag's three parts, with the left button held between them: pressing at a point,
/// moving while held (pages see `buttons` 1, as in a person's drag), letting go.
pub async fn press_at(page: &Page, x: f64, y: f64) -> Result<()> {
    let events = vec![
        mouse(DispatchMouseEventType::MouseMoved, x, y, None, 0)?,
        mouse(DispatchMouseEventType::MousePressed, x, y, Some(MouseButton::Left), 1)?,
    ];
    send_mouse(page, events).await
}

pub async fn move_held(page: &Page, x: f64, y: f64) -> Result<()> {
    send_mouse(page, vec![mouse(DispatchMouseEventType::MouseMoved, x, y, Some(MouseButton::Left), 0)?]).await
}

pub async fn release(page: &Page, x: f64, y: f64) -> Result<()> {
    send_mouse(page, vec![mouse(DispatchMouseEventType::MouseReleased, x, y, Some(MouseButton::Left), 1)?]).await
}

async fn key_event(
    page: &Page,
    kind: DispatchKeyEventType,
    key: &KeyDef,
    modifiers: Modifiers,
    with_text: bool,
) -> Result<()> {
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
    delivered(page.execute(params.build()?)).await?;
    Ok(())
}

/// Presses a key or combination: modifiers down, key down and up, modifiers up.
pub async fn press(page: &Page, combo: &KeyCombo) -> Result<()> {
    let m = combo.modifiers;
    let held: Vec<KeyDef> = [(m.ctrl, "Control"), (m.shift, "Shift"), (m.alt, "Alt"), (m.meta, "Meta")]
        .into_iter()
        .filter(|(on, _)| *on)
        .filter_map(|(_, name)| statewright_workflow::keys::parse_key_combo(name).ok().map(|c| c.key))
        .collect();
    for key in &held {
        key_event(page, DispatchKeyEventType::RawKeyDown, key, m, false).await?;
    }
    // With Control, Alt or Meta held a key is a shortcut and inserts no text.
    let inserts_text = !(m.ctrl || m.alt || m.meta);
    let kind = if inserts_text && combo.key.text.is_some() {
        DispatchKeyEventType::KeyDown
    } else {
        DispatchKeyEventType::RawKeyDown
    };
    key_event(page, kind, &combo.key, m, inserts_text).await?;
    key_event(page, DispatchKeyEventType::KeyUp, &combo.key, m, false).await?;
    for key in held.iter().rev() {
        key_event(page, DispatchKeyEventType::KeyUp, key, Modifiers::default(), false).await?;
    }
    Ok(())
}

/// Types `text` into the focused element. All but the last character go in as one text
/// insertion (an `input` event, fast); the last is a real key press, so pages that listen
/// for `keydown`/`keyup` (autocomplete widgets, say) see a keystroke with the full value.
pub async fn type_text(page: &Page, text: &str) -> Result<()> {
    let Some(last) = text.chars().last() else { return Ok(()) };
    let head = &text[..text.len() - last.len_utf8()];
    if !head.is_empty() {
        delivered(page.execute(InsertTextParams::new(head))).await?;
    }
    match key_for_char(last).filter(|(def, _)| def.text.is_some() && last != '\n' && last != '\r') {
        Some((def, shift)) => {
            let modifiers = Modifiers { shift, ..Modifiers::default() };
            key_event(page, DispatchKeyEventType::KeyDown, &def, modifiers, true).await?;
            key_event(page, DispatchKeyEventType::KeyUp, &def, modifiers, false).await
        }
        None => {
            delivered(page.execute(InsertTextParams::new(last.to_string()))).await?;
            Ok(())
        }
    }
}
