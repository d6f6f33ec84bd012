use serde_json::json;
use statewright_demo::{Site, SiteServer};
use statewright_workflow::MouseButton;

use super::*;

/// Clicks the element showing `text` in the recorded tab, as a person does: input events
/// at a point of it.
async fn person_clicks(recording: &Recording, text: &str) {
    person_clicks_in(recording, &recording.session.page, text).await
}

/// The same in `page`, which may be a tab the recording left behind.
async fn person_clicks_in(recording: &Recording, page: &crate::page::PageHandle, text: &str) {
    let args = [json!({"text": text}), json!({"timeoutMs": 5000, "hitTest": true})];
    let at = page.call("actionable", &args, Duration::from_secs(10)).await.expect("the page answers");
    let (x, y) = (at["x"].as_f64(), at["y"].as_f64());
    let (Some(x), Some(y)) = (x, y) else { panic!("{text} is not there to click: {at}") };
    // A popup that closes itself in answer never acknowledges the click's input.
    let closed = recording.session.tabs.as_ref().expect("tabs are watched").closed(page.raw().target_id().clone());
    tokio::select! {
        sent = crate::input::click(page.raw(), x, y, MouseButton::Left, 1) => sent.expect("the click is sent"),
        () = closed => {}
    }
}

/// Clicks the element showing `text` in one of the recorded tab's cross-origin frames,
/// however deep, as a person does: at its place in the window.
async fn person_clicks_in_a_frame(recording: &Recording, text: &str) {
    let page = &recording.session.page;
    let args = [json!({"text": text}), json!({"timeoutMs": 0, "hitTest": true})];
    // The frames load after the page.
    for _ in 0..50 {
        for frame in page.frames().await {
            let Ok(at) = page.call_in(&frame, "actionable", &args, Duration::from_secs(5)).await else { continue };
            let (Some(x), Some(y)) = (at["x"].as_f64(), at["y"].as_f64()) else { continue };
            let (left, top) = page.frame_corner(&frame).await.expect("the frame shows");
            let clicked = crate::input::click(page.raw(), left + x, top + y, MouseButton::Left, 1).await;
            return clicked.expect("the click is sent");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no frame shows {text}");
}

/// The act the person's click on `text` in one of the tab's frames is heard as.
async fn act_in_a_frame(recording: &mut Recording, text: &str) -> Value {
    person_clicks_in_a_frame(recording, text).await;
    let heard = tokio::time::timeout(Duration::from_secs(10), recording.next()).await;
    let Ok(Some((Heard::Act(act), _))) = heard else { panic!("heard {heard:?}") };
    act
}

/// A page's file name, without its query.
fn file(url: &str) -> &str {
    url.rsplit('/').next().and_then(|f| f.split('?').next()).unwrap_or_default()
}

/// Goes back as the Back button does: from the browser, to the entry before.
async fn person_goes_back(recording: &Recording) {
    use chromiumoxide::cdp::browser_protocol::page::{GetNavigationHistoryParams, NavigateToHistoryEntryParams};
    let page = recording.session.page.raw();
    let history = page.execute(GetNavigationHistoryParams::default()).await.expect("the history").result;
    let before = &history.entries[history.current_index as usize - 1];
    page.execute(NavigateToHistoryEntryParams::new(before.id)).await.expect("back");
}

/// What is heard until the page (or route) at `path` is told, in short: `act
/// <description>`, `page <path>`, `route <path>`, `back to <path> from <title>`.
async fn hear_until_page(recording: &mut Recording, path: &str) -> Vec<String> {
    let mut heard = Vec::new();
    loop {
        let short = hear_next(recording).await.unwrap_or_else(|| panic!("{path} was not told; heard {heard:?}"));
        let done = [format!("page {path}"), format!("route {path}")].iter().any(|end| short.ends_with(end))
            || short.starts_with(&format!("back to {path} "));
        heard.push(short);
        if done {
            return heard;
        }
    }
}

/// The next two things heard, in sorted order: what two listeners (the page's and the
/// browser's) tell of one act can come in either order. Nothing heard within 10 s is "".
async fn hear_two(recording: &mut Recording) -> [String; 2] {
    let mut heard = [hear_next(recording).await, hear_next(recording).await].map(Option::unwrap_or_default);
    heard.sort();
    heard
}

/// The next thing heard, in short; `None` when nothing is within 10 s.
async fn hear_next(recording: &mut Recording) -> Option<String> {
    let next = tokio::time::timeout(Duration::from_secs(10), recording.next()).await;
    let Ok(Some((next, _))) = next else { return None };
    Some(match next {
        Heard::Act(act) => format!("act {}", act["description"].as_str().unwrap_or("?")),
        Heard::Navigated(url) => format!("page {}", file(&url)),
        Heard::Routed(url) => format!("route {}", file(&url)),
        Heard::Downloaded { url, name } => format!("download {name} from {}", file(&url)),
        Heard::WentBack { url, from } => format!("back to {} from {:?}", file(&url), from.1),
        Heard::Switched { tab, closed, url } => {
            let closed = if closed { " (closed)" } else { "" };
            format!("{tab}{closed}: page {}", file(&url))
        }
        Heard::Closed => panic!("the tab closed"),
    })
}

fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A recording of `page` of the fixtures, served for it (keep the server alive).
async fn recording_of(page: &str) -> (SiteServer, Recording) {
    let server = SiteServer::start(Site::Dir(fixtures()), 0).await.expect("serve fixtures");
    let recording = Recording::start(&LaunchOptions::default()).await.expect("Chromium launches");
    recording.open(&format!("{}/{page}", server.url())).await.expect("the first page opens");
    (server, recording)
}

/// A recording of the tabs fixture's shop.
async fn recording_the_shop() -> (SiteServer, Recording) {
    recording_of("tabs.html?answer-later").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_demonstration_follows_a_new_tab_and_a_popup_that_closes_itself() {
    let (_server, mut recording) = recording_the_shop().await;
    assert_eq!(hear_until_page(&mut recording, "tabs.html").await, ["page tabs.html"]);

    person_clicks(&recording, "Open your account").await;
    let heard = hear_until_page(&mut recording, "tabs-account.html").await;
    assert_eq!(heard, ["act a \"Open your account\"", "page tabs-account.html"]);
    person_clicks(&recording, "Sign in with a popup").await;
    let heard = hear_until_page(&mut recording, "tabs-popup.html").await;
    assert_eq!(heard, ["act button \"Sign in with a popup\"", "page tabs-popup.html"]);
    // The popup tells its opener and closes itself: the person is back on the account.
    person_clicks(&recording, "Allow").await;
    let heard = hear_until_page(&mut recording, "tabs-account.html").await;
    assert_eq!(heard, ["act button \"Allow\"", "page tabs-account.html"]);
    let page = recording.snapshot().await.expect("the account tab is there");
    assert!(page["text"].as_str().is_some_and(|t| t.contains("Signed in")), "{page}");
    recording.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_page_applications_routes_are_heard_and_going_back_to_one() {
    let (_server, mut recording) = recording_of("spa-orders.html").await;
    // The router setting the address it started on is no route.
    assert_eq!(hear_until_page(&mut recording, "spa-orders.html").await, ["page spa-orders.html"]);

    // A click and the route its script takes are heard by two listeners, in either order.
    person_clicks(&recording, "Order 7 details").await;
    assert_eq!(hear_two(&mut recording).await, ["act a \"Order 7 details\"", "route 7"]);
    // The route left is gone when going back is heard: its title was kept when it came.
    person_goes_back(&recording).await;
    let heard = hear_until_page(&mut recording, "spa-orders.html").await;
    assert_eq!(heard, ["back to spa-orders.html from \"Order 7\""]);
    person_clicks(&recording, "Finish").await;
    assert_eq!(hear_two(&mut recording).await, ["act a \"Finish\"", "route done"]);
    recording.close().await;
}

/// Half an emoji in what the act tells (its target's name) went out as an escape the
/// act's JSON could not be read with: the act was dropped, as if never done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_act_on_an_element_named_with_half_an_emoji_is_heard() {
    let (_server, mut recording) = recording_of("half-emoji.html").await;
    assert_eq!(hear_until_page(&mut recording, "half-emoji.html").await, ["page half-emoji.html"]);
    person_clicks(&recording, "Go").await;
    assert_eq!(hear_next(&mut recording).await.as_deref(), Some("act button#go \"Go Great news \u{FFFD}\""));
    recording.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_is_heard_after_the_click_that_started_it() {
    let (_server, mut recording) = recording_of("download.html").await;
    assert_eq!(hear_until_page(&mut recording, "download.html").await, ["page download.html"]);

    // A file the server sends, then one the page builds. The act comes through the
    // page, the download from the browser: two listeners, heard in either order (a
    // demonstration pairs a download heard just before its click with it).
    person_clicks(&recording, "Download the report").await;
    assert_eq!(
        hear_two(&mut recording).await,
        ["act a \"Download the report\"", "download report.csv from report.csv"]
    );
    person_clicks(&recording, "Export").await;
    let heard = hear_two(&mut recording).await;
    assert_eq!(heard[0], "act button#export \"Export\"");
    assert!(heard[1].starts_with("download export.csv from "), "{heard:?}");
    recording.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_and_its_frame_cannot_report_acts_the_person_never_did() {
    // Both look for the recorder's binding every 50 ms from the start, to forge clicks.
    let (_server, mut recording) = recording_of("hostile.html").await;
    assert_eq!(hear_until_page(&mut recording, "hostile.html").await, ["page hostile.html"]);
    person_clicks(&recording, "Continue").await;
    assert_eq!(hear_next(&mut recording).await.as_deref(), Some(r#"act button#go "Continue""#));
    // The frame is listened to by now (every half second): still nothing forged.
    let next = tokio::time::timeout(Duration::from_secs(2), recording.next()).await;
    assert!(next.is_err(), "heard {next:?}");
    let page = recording.snapshot().await.expect("the page is there");
    assert!(page["text"].as_str().is_some_and(|t| t.contains("Page: no automation found")), "{page}");
    recording.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_act_in_a_frame_inside_a_frame_from_another_site_is_heard() {
    let (_server, mut recording) = recording_of("frames-nested.html").await;
    assert_eq!(hear_until_page(&mut recording, "frames-nested.html").await, ["page frames-nested.html"]);
    // The bank's frame is listened to once it has been there for a listing.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let act = act_in_a_frame(&mut recording, "Verify").await;
    assert_eq!(act["description"], r#"button#verify "Verify""#, "{act}");
    assert!(act["frame"].as_str().is_some_and(|f| f.starts_with("http://127.0.0.1:")), "{act}");
    // The act's record is the tab's page, with the bank's frame where it shows.
    let page = act["page"]["text"].as_str().unwrap_or_default();
    assert!(page.contains("Order") && page.contains("Enter the code your bank sent"), "{act}");
    recording.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_act_in_a_frame_from_another_origin_of_the_same_site_is_heard_with_the_page() {
    let accounts = SiteServer::start(Site::Dir(fixtures()), 0).await.expect("serve the accounts origin");
    let port = accounts.url().rsplit(':').next().expect("a port").to_owned();
    let (_server, mut recording) = recording_of(&format!("frames-same-site.html?accounts={port}")).await;
    assert_eq!(hear_until_page(&mut recording, "frames-same-site.html").await, ["page frames-same-site.html"]);
    let act = act_in_a_frame(&mut recording, "Continue with your account").await;
    assert_eq!(act["description"], r#"button "Continue with your account""#, "{act}");
    assert!(act["frame"].as_str().is_some_and(|f| f.starts_with("http://127.0.0.1:")), "{act}");
    // The act's record is the tab's page, with the frame where it shows.
    let page = act["page"]["text"].as_str().unwrap_or_default();
    assert!(page.contains("Portal") && page.contains("Sign in to your account"), "{act}");
    recording.close().await;
}

/// The page the person's click went to opens an advertisement on its own timer, a second
/// after it loads: the demonstration followed it, as the run did. The page opened it with no
/// user gesture, and the recording stays in the person's tab, as the run will (tabs.rs).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tab_the_next_page_opens_on_its_timer_is_not_followed() {
    let (_server, mut recording) = recording_of("tabs-welcome.html").await;
    hear_until_page(&mut recording, "tabs-welcome.html").await;
    person_clicks(&recording, "See your offer").await;
    let heard = hear_until_page(&mut recording, "tabs-offer.html").await;
    assert_eq!(heard, [r#"act a "See your offer""#, "page tabs-offer.html"]);
    let next = tokio::time::timeout(Duration::from_secs(2), recording.next()).await;
    assert!(next.is_err(), "heard {next:?}");
    assert_eq!(recording.session.strays.len(), 1, "the advertisement is kept for switch_tab");
    person_clicks(&recording, "Accept").await;
    assert_eq!(hear_next(&mut recording).await.as_deref(), Some(r#"act button "Accept""#));
    recording.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_going_back_to_a_tab_is_heard_as_a_switch_to_it() {
    let (_server, mut recording) = recording_the_shop().await;
    hear_until_page(&mut recording, "tabs.html").await;
    person_clicks(&recording, "Open your account").await;
    hear_until_page(&mut recording, "tabs-account.html").await;
    person_clicks(&recording, "Sign in with a popup").await;
    hear_until_page(&mut recording, "tabs-popup.html").await;

    // Two tabs back, the shop: named by its title.
    let shop = recording.session.behind[0].clone();
    person_clicks_in(&recording, &shop, "Show offers").await;
    let heard = hear_until_page(&mut recording, "tabs.html").await;
    assert_eq!(heard, [r#"title "Tabs": page tabs.html"#]);
    let act = tokio::time::timeout(Duration::from_secs(10), recording.next()).await.expect("the act is told");
    assert!(matches!(&act, Some((Heard::Act(a), _)) if a["description"] == r#"button "Show offers""#), "{act:?}");

    // Then the popup, the tab just left: the tab before. It closes itself on *Allow*,
    // which is no act of the person's.
    let popup = recording.session.behind.last().expect("the popup is behind").clone();
    person_clicks_in(&recording, &popup, "Allow").await;
    let heard = hear_until_page(&mut recording, "tabs.html").await;
    assert_eq!(heard, ["the previous tab: page tabs-popup.html", r#"act button "Allow""#, "page tabs.html"]);

    // A tab the person closes themselves is a switch that closes it.
    person_clicks(&recording, "Open your account").await;
    hear_until_page(&mut recording, "tabs-account.html").await;
    recording.session.page.raw().clone().close().await.expect("the tab closes");
    let heard = hear_until_page(&mut recording, "tabs.html").await;
    assert_eq!(heard, ["the previous tab (closed): page tabs.html"]);
    recording.close().await;
}
