//! The desktop driver against real X programs (xterm) on a real X server with a window
//! manager. Run with `scripts/with-display cargo test -p statewright-desktop`.

mod common;

use std::path::Path;
use std::time::Duration;

use common::*;
use statewright_desktop::{
    CaptureTarget, Desktop, LaunchSpec, MouseButton, Position, TitleMatch, WindowQuery, WindowSource, X11Desktop,
};

const WAIT: Duration = Duration::from_secs(10);

#[tokio::test]
async fn launches_waits_for_and_types_into_a_window() {
    let _screen = SCREEN.lock().await;
    let Some(d) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (pid, w) = open_xterm(&d, "swtype", "Statewright typing test", dir.path(), "80x24+20+20").await;
    assert_eq!(w.app_class, "XTerm");
    assert_eq!(w.instance, "swtype");
    assert_eq!(w.pid, Some(pid), "the window's pid is the launched program's");
    assert_eq!(w.geometry, server_geometry(w.id), "the driver reads the client window's place and size");
    // The window manager maps a window a moment before it lists it in _NET_CLIENT_LIST;
    // until then the list is empty and the driver walks the window tree.
    let mut source = WindowSource::XTree;
    for _ in 0..100 {
        source = d.windows_with_source().await.unwrap().1;
        if source == WindowSource::Ewmh {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(source, WindowSource::Ewmh, "openbox publishes _NET_CLIENT_LIST");

    // Every query form finds the same window.
    for q in [
        WindowQuery::title_contains("typing test"),
        WindowQuery::title_regex(r"^Statewright \w+ test$"),
        WindowQuery::app_class("swtype"),
        WindowQuery { app_class: Some("xterm".into()), pid: Some(pid), ..Default::default() },
        WindowQuery::id(w.id),
    ] {
        assert_eq!(d.find_window(&q).await.unwrap().id, w.id, "{q:?}");
    }

    let focused = d.focus(&WindowQuery::pid(pid)).await.unwrap();
    assert!(focused.focused);
    assert_eq!(d.focused_window().await.unwrap().map(|w| w.id), Some(w.id));
    // The window can map before its shell reads the terminal; keys typed earlier are lost.
    assert!(shell_ready(&d, dir.path()).await, "the shell in the xterm never answered");
    d.type_text("echo Hi there > typed.txt").await.unwrap();
    d.press_keys("Enter").await.unwrap();
    let file = dir.path().join("typed.txt");
    assert!(eventually(WAIT, || read(&file) == "Hi there\n").await, "typed.txt holds {:?}", read(&file));
}

#[tokio::test]
async fn focus_switches_between_two_windows_and_keys_follow_it() {
    let _screen = SCREEN.lock().await;
    let Some(d) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_, a) = open_xterm(&d, "swfocusa", "Focus A", dir_a.path(), "80x24+10+10").await;
    let (_, b) = open_xterm(&d, "swfocusb", "Focus B", dir_b.path(), "80x24+600+10").await;

    for (target, other) in [(&a, &b), (&b, &a), (&a, &b)] {
        let got = d.focus(&WindowQuery::id(target.id)).await.unwrap();
        assert!(got.focused);
        let windows = d.windows().await.unwrap();
        let focused: Vec<_> = windows.iter().filter(|w| w.focused).map(|w| w.id).collect();
        assert_eq!(focused, vec![target.id], "exactly one focused window");
        assert!(!windows.iter().any(|w| w.id == other.id && w.focused));
    }

    // Keys go to B only after focusing B. Control+U (the terminal's line kill) must erase
    // the junk, or the command would be `echo junktouch …` and create no file.
    d.focus(&WindowQuery::title_exact("Focus B")).await.unwrap();
    d.type_text("echo junk").await.unwrap();
    d.press_keys("control+u").await.unwrap();
    d.type_text("touch b-was-here\n").await.unwrap();
    let in_b = dir_b.path().join("b-was-here");
    assert!(eventually(WAIT, || in_b.exists()).await, "the file appears in B's directory");
    assert!(!dir_a.path().join("b-was-here").exists(), "A received no keys");
}

/// Every printable ASCII character arrives as typed: capitals and symbols are Shift plus
/// their key on the layout, lower case and digits are their key alone; `press_keys` on a
/// character does the same.
#[tokio::test]
async fn types_every_printable_ascii_character() {
    let _screen = SCREEN.lock().await;
    let Some(d) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let text: String = (' '..='~').collect();
    let spec = xterm("swascii", "ASCII test", dir.path(), "80x24+60+60");
    // A key named by a shifted character is pressed the same way.
    let got = typed_through_cat(&d, &spec, "ASCII test", dir.path(), &text, &["?", "Shift+>", "a", "Shift+a"]).await;
    assert_eq!(got, format!("{text}?>aA\n"));
}

/// Characters the layout lacks are bound to spare keys for the text, typed, and unbound:
/// the xterm (in a UTF-8 locale) receives them all, mixed with the layout's own.
#[tokio::test]
async fn types_characters_the_layout_lacks() {
    let _screen = SCREEN.lock().await;
    let Some(d) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let text = "Café déjà vu, 3½ € — naïve Ωmega; Ξεσκεπάζω την ψυχοφθόρα βδελυγμία; Съешь же ещё этих мягких французских булок, да выпей чаю";
    let spec = xterm("swintl", "Intl test", dir.path(), "80x24+70+70").env("LC_ALL", "C.UTF-8");
    // Pressed as keys too, which the driver binds the same way.
    let got = typed_through_cat(&d, &spec, "Intl test", dir.path(), text, &["ж", "é"]).await;
    assert_eq!(got, format!("{text}жé\n"));
}

/// Opens the xterm, types `text` and presses `keys` into `cat > typed.txt` at its shell,
/// ends the line and the input, and returns what `cat` wrote: read once the shell has run
/// a command typed after the end of input, so `cat` has written everything.
async fn typed_through_cat(
    d: &X11Desktop,
    spec: &LaunchSpec,
    title: &str,
    dir: &Path,
    text: &str,
    keys: &[&str],
) -> String {
    let (_, w) = open_xterm_spec(d, spec, title).await;
    d.focus(&WindowQuery::id(w.id)).await.unwrap();
    assert!(shell_ready(d, dir).await, "the shell in the xterm never answered");
    d.type_text("cat > typed.txt\n").await.unwrap();
    d.type_text(text).await.unwrap();
    for key in keys.iter().chain(&["Enter", "Control+D"]) {
        d.press_keys(key).await.unwrap();
    }
    // `cat` exits on Control+D; the shell then runs `touch done`.
    d.type_text("touch done\n").await.unwrap();
    assert!(eventually(WAIT, || dir.join("done").exists()).await, "the shell never ran `touch done`");
    read(&dir.join("typed.txt"))
}

#[tokio::test]
async fn window_screenshot_changes_after_input() {
    let _screen = SCREEN.lock().await;
    let Some(d) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_, w) = open_xterm(&d, "swshot", "Screenshot test", dir.path(), "80x24+40+40").await;
    d.focus(&WindowQuery::id(w.id)).await.unwrap();
    // Let the prompt render, so only our input changes the picture.
    d.type_text("touch ready\n").await.unwrap();
    assert!(eventually(WAIT, || dir.path().join("ready").exists()).await);
    tokio::time::sleep(Duration::from_millis(200)).await;

    let target = CaptureTarget::Window { window: WindowQuery::id(w.id) };
    let before = d.screenshot(&target).await.unwrap();
    assert_eq!((before.width, before.height), (w.geometry.width, w.geometry.height));
    assert_eq!(before.area, w.geometry);
    let before_px = pixels(&before.png);
    assert_eq!(before_px.dimensions(), (w.geometry.width, w.geometry.height));
    let again = pixels(&d.screenshot(&target).await.unwrap().png);
    assert_eq!(changed_pixels(&before_px, &again), 0, "an idle window screenshots identically");

    d.type_text("echo MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM").await.unwrap();
    let mut changed = 0;
    for _ in 0..100 {
        let after = pixels(&d.screenshot(&target).await.unwrap().png);
        changed = changed_pixels(&before_px, &after);
        if changed > 300 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(changed > 300, "typing 45 characters changed only {changed} pixels");

    // The whole screen and monitor 0 have the screen's size.
    let screen = d.screen();
    let full = d.screenshot(&CaptureTarget::Screen).await.unwrap();
    assert_eq!((full.width, full.height), (screen.width, screen.height));
    let mon = d.screenshot(&CaptureTarget::Monitor { index: 0 }).await.unwrap();
    assert_eq!((mon.width, mon.height), (screen.width, screen.height));
    assert_eq!(pixels(&full.png).dimensions(), (screen.width, screen.height));
}

/// Dragging across a word in xterm selects it (the PRIMARY selection); a middle click
/// pastes it into `cat > sel.txt`. If the drag did nothing, the file stays empty.
///
/// A paste is asynchronous: xterm asks the X server for the selection and writes it to the
/// terminal only when the answer comes, so keys pressed right after the click can overtake
/// it (under load, Control+D ended `cat` before the text arrived). The test waits for the
/// pasted text in the file before it presses anything.
#[tokio::test]
async fn drag_selects_text_that_a_middle_click_pastes() {
    let _screen = SCREEN.lock().await;
    let Some(d) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_, w) = open_xterm(&d, "swdrag", "Drag test", dir.path(), "80x24+30+30").await;
    d.focus(&WindowQuery::id(w.id)).await.unwrap();
    d.type_text("clear; echo dragme-42; touch ready\n").await.unwrap();
    assert!(eventually(WAIT, || dir.path().join("ready").exists()).await);
    tokio::time::sleep(Duration::from_millis(200)).await;

    // 80x24 cells inside a 2-pixel border: the cell size follows from the geometry.
    let (cw, ch) = ((w.geometry.width as i32 - 4) / 80, (w.geometry.height as i32 - 4) / 24);
    let cell =
        |col: i32, row: i32| Position::in_window(WindowQuery::id(w.id), 2 + col * cw + cw / 2, 2 + row * ch + ch / 2);
    // End three cells past the text (xterm ends a selection at the cell boundary nearest
    // the pointer, so the last character's own cell is not enough); past the text xterm
    // selects through the end of the line, newline included.
    d.drag(&cell(0, 0), &cell(12, 0), MouseButton::Left).await.unwrap();

    // Out of line mode, `cat` writes each byte as it comes and Control+C ends it.
    d.type_text("stty -icanon; cat > sel.txt\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    d.click(&cell(10, 5), MouseButton::Middle, 1).await.unwrap();
    let sel = dir.path().join("sel.txt");
    assert!(eventually(WAIT, || read(&sel).trim_end() == "dragme-42").await, "sel.txt holds {:?}", read(&sel));
    d.press_keys("Control+C").await.unwrap();
    d.type_text("stty sane\n").await.unwrap();

    // A double click selects one word (xterm's word characters stop at '-').
    d.type_text("clear; echo alpha beta; touch ready2\n").await.unwrap();
    assert!(eventually(WAIT, || dir.path().join("ready2").exists()).await);
    tokio::time::sleep(Duration::from_millis(200)).await;
    d.double_click(&cell(7, 0)).await.unwrap();
    d.type_text("stty -icanon; cat > word.txt\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    d.click(&cell(10, 5), MouseButton::Middle, 1).await.unwrap();
    let word = dir.path().join("word.txt");
    assert!(eventually(WAIT, || read(&word) == "beta").await, "word.txt holds {:?}", read(&word));
    d.press_keys("Control+C").await.unwrap();
    d.type_text("stty sane\n").await.unwrap();
}

/// The wheel scrolls xterm's scrollback: scrolling up changes the picture, scrolling back
/// down restores it exactly.
#[tokio::test]
async fn scroll_moves_through_scrollback_and_back() {
    let _screen = SCREEN.lock().await;
    let Some(d) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_, w) = open_xterm(&d, "swscroll", "Scroll test", dir.path(), "80x24+50+50").await;
    d.focus(&WindowQuery::id(w.id)).await.unwrap();
    d.type_text("seq 1 300; touch ready\n").await.unwrap();
    assert!(eventually(WAIT, || dir.path().join("ready").exists()).await);
    tokio::time::sleep(Duration::from_millis(300)).await;

    let target = CaptureTarget::Window { window: WindowQuery::id(w.id) };
    let centre = Position::in_window(WindowQuery::id(w.id), w.geometry.width as i32 / 2, w.geometry.height as i32 / 2);
    let bottom = pixels(&d.screenshot(&target).await.unwrap().png);

    d.scroll(&centre, 0, -3).await.unwrap();
    let mut up = bottom.clone();
    for _ in 0..40 {
        up = pixels(&d.screenshot(&target).await.unwrap().png);
        if changed_pixels(&bottom, &up) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(changed_pixels(&bottom, &up) > 300, "scrolling up changed {} pixels", changed_pixels(&bottom, &up));

    d.scroll(&centre, 0, 3).await.unwrap();
    let mut back = up.clone();
    for _ in 0..40 {
        back = pixels(&d.screenshot(&target).await.unwrap().png);
        if changed_pixels(&bottom, &back) == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(changed_pixels(&bottom, &back), 0, "scrolling back down restores the view");
}

#[tokio::test]
async fn observation_serialises_windows_focus_and_screenshot() {
    let _screen = SCREEN.lock().await;
    let Some(d) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_, w) = open_xterm(&d, "swobserve", "Observe test", dir.path(), "40x10+0+0").await;
    d.focus(&WindowQuery::id(w.id)).await.unwrap();
    let obs = d.observe().await.unwrap();
    assert_eq!(obs.focused.as_ref().map(|f| f.id), Some(w.id));
    assert!(obs.windows.iter().any(|x| x.id == w.id));
    let shot = obs.screenshot.as_ref().unwrap();
    assert!(shot.png.starts_with(b"\x89PNG"));
    let json = serde_json::to_value(&obs).unwrap();
    assert_eq!(json["focused"]["title"], "Observe test");
    assert_eq!(json["screenshot"]["width"], d.screen().width);
    assert!(json["windows"].as_array().is_some_and(|a| !a.is_empty()));
    let q: WindowQuery =
        serde_json::from_value(serde_json::json!({"title": {"match": "regex", "value": "^Obs"}})).unwrap();
    assert_eq!(q.title, Some(TitleMatch::Regex("^Obs".into())));
    assert_eq!(d.find_window(&q).await.unwrap().id, w.id);
}
