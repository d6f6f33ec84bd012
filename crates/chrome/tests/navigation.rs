//! `navigate_to` against real headless Chromium and a server that never finishes some
//! answers: a page whose image never comes, a page whose HTML never ends. A person sees
//! and uses either at once; so does the run, as after a click that goes there.

mod common;

use std::time::{Duration, Instant};

use common::{run_on, workflow};
use serde_json::json;
use statewright_chrome::{ChromeDriver, LaunchOptions};
use statewright_engine::{Driver, DriverError};
use statewright_workflow::Action;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const BUTTON: &str = r#"<button id="b" onclick="document.getElementById('o').textContent='clicked'">Go on</button><p id="o">not yet</p>"#;

/// Serves `/hanging.html` (whose image never answers), `/stream.html` (whose HTML never
/// ends), `/staff.html` (behind a password), `/links.html` (a link to it), `/gone.html` (a
/// 404) and `/report.csv` (a file to download) on loopback; its address.
async fn never_finishing_site() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
    let address = format!("http://{}", listener.local_addr().expect("bound"));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(answer(stream));
        }
    });
    address
}

async fn answer(mut stream: TcpStream) {
    let mut request = vec![0; 4096];
    let Ok(n) = stream.read(&mut request).await else { return };
    let request = String::from_utf8_lossy(&request[..n]).into_owned();
    let path = request.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let head = |length: Option<usize>| {
        let length = length.map(|n| format!("Content-Length: {n}\r\n")).unwrap_or_default();
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n{length}Connection: close\r\n\r\n"
        )
    };
    match path.as_str() {
        // A staff area behind HTTP basic authentication: user ada, password secret.
        "/staff.html" => {
            let answer = if request.lines().any(|l| l.eq_ignore_ascii_case("authorization: basic YWRhOnNlY3JldA==")) {
                let body = "<!doctype html><title>Staff</title><h1>Staff page</h1>";
                format!("{}{body}", head(Some(body.len())))
            } else {
                "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"staff\"\r\nContent-Length: 0\r\n\
                 Connection: close\r\n\r\n"
                    .to_owned()
            };
            let _ = stream.write_all(answer.as_bytes()).await;
        }
        "/links.html" => {
            let body = "<!doctype html><title>Links</title><a id=\"staff\" href=\"/staff.html\">Staff area</a>";
            let _ = stream.write_all(format!("{}{body}", head(Some(body.len()))).as_bytes()).await;
        }
        "/report.csv" => {
            let body = "month,sales\nMarch,12\n";
            let head = head(Some(body.len())).replace(
                "text/html; charset=utf-8",
                "text/csv\r\nContent-Disposition: attachment; filename=\"report.csv\"",
            );
            let _ = stream.write_all(format!("{head}{body}").as_bytes()).await;
        }
        "/gone.html" => {
            let body = "<!doctype html><title>Shop</title><h1>Sorry, we could not find that page</h1>";
            let head = head(Some(body.len())).replace("200 OK", "404 Not Found");
            let _ = stream.write_all(format!("{head}{body}").as_bytes()).await;
        }
        "/hanging.html" => {
            let body =
                format!("<!doctype html><title>Hanging</title><h1>Hanging page</h1>{BUTTON}<img src=\"/never.png\">");
            let _ = stream.write_all(format!("{}{body}", head(Some(body.len()))).as_bytes()).await;
        }
        "/stream.html" => {
            let body =
                format!("<!doctype html><title>Streaming</title><h1>Streaming page</h1>{BUTTON}{}", " ".repeat(4096));
            let _ = stream.write_all(format!("{}{body}", head(None)).as_bytes()).await;
            while stream.write_all(b"<!-- more -->").await.is_ok() {
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
        // The image: asked for, never answered.
        _ => tokio::time::sleep(Duration::from_secs(600)).await,
    }
}

async fn navigate(
    driver: &mut ChromeDriver,
    url: &str,
) -> (Result<statewright_engine::Outcome, DriverError>, Duration) {
    let began = Instant::now();
    let went = driver.perform(&Action::NavigateTo { url: url.to_owned() }, Duration::from_secs(6)).await;
    (went, began.elapsed())
}

/// The message of a navigation refused as the user's to fix (`Invalid`); anything else fails.
fn refused(went: Result<statewright_engine::Outcome, DriverError>) -> String {
    match went {
        Err(DriverError::Invalid(message)) => message,
        other => panic!("expected the navigation refused, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn navigate_to_a_page_that_never_finishes_loading_is_done_once_it_shows() {
    let site = never_finishing_site().await;
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
    // Twice: the second is not held up behind the first's load, which never comes.
    for page in ["hanging.html", "hanging.html", "stream.html"] {
        let (went, took) = navigate(&mut driver, &format!("{site}/{page}")).await;
        assert!(went.is_ok(), "{page}: {went:?}");
        assert!(took < Duration::from_secs(4), "{page} took {took:?}, as long as its load");
        assert!(common::text_of(&mut driver, "h1").await.ends_with(" page"), "{page} shows its heading");
    }
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_goes_on_through_pages_that_never_finish_loading() {
    let site = never_finishing_site().await;
    for page in ["hanging.html", "stream.html"] {
        let flow = workflow(
            page,
            json!([
                {"name": "done", "checks": [{"type": "text", "value": "clicked"}],
                 "terminal": {"outcome": "success", "message": "ok"}},
                {"name": "shown", "checks": [{"type": "text", "match": "contains", "value": "page"}],
                 "actions": [{"type": "click", "target": {"css": "#b"}}]}
            ]),
            // No second try and no looking again: the first navigation must do.
            json!({"max_retries": 0, "action_timeout": 6, "escalation": ["heal"]}),
        );
        let began = Instant::now();
        let finished = run_on(&site, flow).await;
        finished.assert_succeeded();
        assert_eq!(finished.states_entered(), ["open", "shown", "done"], "{page}");
        assert!(began.elapsed() < Duration::from_secs(6), "{page} waited for its load: {:?}", began.elapsed());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_nothing_answers_at_cannot_be_loaded_and_says_why() {
    let closed = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
    let url = format!("http://{}/", closed.local_addr().expect("bound"));
    drop(closed);
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
    let (went, _) = navigate(&mut driver, &url).await;
    let message = refused(went);
    assert!(message.contains("ERR_CONNECTION_REFUSED"), "{message}");
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_script_never_yields_while_loading_fails_the_navigation_in_its_time_saying_so() {
    let (mut driver, first, _held) = common::drive("page2.html").await;
    let url = first.replace("page2.html", "spins-while-loading.html");
    let began = Instant::now();
    let went = driver.perform(&Action::NavigateTo { url }, Duration::from_secs(3)).await;
    let took = began.elapsed();
    // The action's time, and the look whether the browser itself still answers (1 s).
    assert!(took < Duration::from_millis(4500), "the navigation took {took:?} of its 3 s: {went:?}");
    match went {
        Err(DriverError::NotActionable { reason, message }) => {
            assert_eq!(reason, "timeout");
            assert_eq!(
                message,
                "the new page did not answer within 3 s: a script on it is busy, or it is too large to read in time"
            );
        }
        other => panic!("{other:?}"),
    }
    driver.close().await;
}

/// An `href` read with `extract` is most often relative (`lamp.html`, here to a
/// `<base href>`); opened with `navigate_to`, it goes where the page's link goes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relative_address_read_from_a_link_opens_where_the_link_goes() {
    let flow = workflow(
        "relative-links.html",
        json!([
            {"name": "lamp", "checks": [{"type": "url", "match": "pattern", "value": "/catalogue/lamp\\.html$"},
                                        {"type": "text", "value": "Desk lamp, 40 W"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            {"name": "catalogue", "checks": [{"type": "title", "match": "exact", "value": "Catalogue"}],
             "actions": [
                {"type": "extract", "target": {"css": "#lamp"}, "read": "attribute", "attribute": "href", "into": "link"},
                {"type": "navigate_to", "url": "{{link}}"}]}
        ]),
        json!({"max_retries": 0}),
    );
    let finished = common::run(flow).await;
    finished.assert_succeeded();
    let opened = finished.details().into_iter().filter(|d| d.ends_with("/catalogue/lamp.html")).count();
    assert_eq!(opened, 1, "navigate_to says where it went: {:?}", finished.details());
}

/// A text that is no address is the action's error, saying so, not a failure of the browser
/// (which ends the run at once): a relative one where the page gives it no base (a fresh
/// tab), and one that is malformed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_that_is_no_address_is_an_error_of_the_action_that_says_so() {
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
    let (went, _) = navigate(&mut driver, "lamp.html").await;
    let message = refused(went);
    assert_eq!(
        message,
        "cannot load `lamp.html`: it is not an absolute address, and the page (about:blank) gives none to start \
         from; start it with http://, https://, file:// or about:"
    );
    let (went, _) = navigate(&mut driver, "http://").await;
    let message = refused(went);
    assert_eq!(message, "cannot load `http://`: it is not a valid address");
    driver.close().await;
}

/// A `javascript:` address (an `href` that `extract` read, a parameter) is not sent to the
/// browser: navigate_to runs no scripts, whatever the browser would do with one, and says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_address_is_not_run_and_the_error_says_it_is_one() {
    let site = never_finishing_site().await;
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
    let (went, _) = navigate(&mut driver, &format!("{site}/hanging.html")).await;
    went.expect("the page shows");
    let script = " JavaScript:document.querySelector('h1').textContent='ran'";
    let (went, _) = navigate(&mut driver, script).await;
    let message = refused(went);
    assert_eq!(
        message,
        format!(
            "cannot load `{script}`: it is a script, not an address, and navigate_to runs no scripts; click the \
             link or button that has it"
        )
    );
    assert!(common::text_of(&mut driver, "h1").await.ends_with(" page"), "the page's heading is as it was");
    driver.close().await;
}

/// A page behind HTTP authentication: the run's browser has nobody to type a password into
/// its prompt, so the address must carry it, and the error says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_behind_a_password_says_it_wants_one_and_opens_with_one_in_the_address() {
    let site = never_finishing_site().await;
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
    let (went, _) = navigate(&mut driver, &format!("{site}/staff.html")).await;
    let message = refused(went);
    assert_eq!(
        message,
        format!(
            "cannot load {site}/staff.html: the server asks for a user name and password (HTTP authentication, \
             net::ERR_INVALID_AUTH_CREDENTIALS); give them in the address, http://USER:PASSWORD@host/… (a \
             `secret` parameter keeps the password out of the run's records)"
        )
    );
    let wrong = site.replace("http://", "http://ada:guess@");
    let (went, _) = navigate(&mut driver, &format!("{wrong}/staff.html")).await;
    let message = refused(went);
    assert!(
        message.ends_with(
            "the server refused the user name and password in the address (HTTP authentication, \
             net::ERR_INVALID_AUTH_CREDENTIALS)"
        ),
        "{message}"
    );
    let right = site.replace("http://", "http://ada:secret@");
    let (went, _) = navigate(&mut driver, &format!("{right}/staff.html")).await;
    assert!(went.is_ok(), "{went:?}");
    assert_eq!(common::text_of(&mut driver, "h1").await, "Staff page");
    driver.close().await;
}

/// A missing page still shows a page (the site's own "not found"), which a workflow's checks
/// may not tell from the one it wanted: the action says what the server answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn navigate_to_a_missing_page_says_the_server_answered_404() {
    let site = never_finishing_site().await;
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
    for (page, detail) in [
        ("gone.html", format!("{site}/gone.html (the server answered HTTP 404)")),
        ("hanging.html", format!("{site}/hanging.html")),
    ] {
        let (went, _) = navigate(&mut driver, &format!("{site}/{page}")).await;
        assert_eq!(went.expect("the page shows").detail, Some(detail));
    }
    driver.close().await;
}

/// An export's address opened with `navigate_to` is downloaded, not shown: the browser ends
/// the navigation as aborted, and the error says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn navigate_to_a_file_to_download_says_it_is_one() {
    let site = never_finishing_site().await;
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
    let (went, _) = navigate(&mut driver, &format!("{site}/report.csv")).await;
    let message = refused(went);
    assert_eq!(
        message,
        format!(
            "cannot load {site}/report.csv: the server answers with a file to download, not a page \
             (net::ERR_ABORTED); a `download` action on the link or button that gets it keeps the file"
        )
    );
    driver.close().await;
}

/// A click that leads where the browser cannot go leaves its error page, whose address
/// (chrome-error://chromewebdata/) says neither where nor why: the run's failure says what
/// that page is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_to_a_page_that_cannot_be_loaded_ends_saying_the_browser_shows_its_error_page() {
    let site = never_finishing_site().await;
    let flow = workflow(
        "links.html",
        json!([
            {"name": "staff", "checks": [{"type": "text", "value": "Staff page"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            {"name": "links", "checks": [{"type": "title", "match": "exact", "value": "Links"}],
             "actions": [{"type": "click", "target": {"css": "#staff"}}]}
        ]),
        json!({"no_states_timeout": 2, "max_retries": 0, "escalation": ["reobserve"]}),
    );
    let finished = run_on(&site, flow).await;
    assert_eq!(finished.report.status, statewright_engine::RunStatus::Failed);
    assert!(
        finished.report.message.starts_with(
            "no state matched for 2 s (no_states_timeout) at chrome-error://chromewebdata/ (title \"\"), the browser's \
             error page: the page it was sent to could not be loaded (its server did not answer or refused, asked for \
             a password, or redirected without end)"
        ),
        "{}",
        finished.report.message
    );
}
