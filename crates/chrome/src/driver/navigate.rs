//! `navigate_to` and `go_back`: done once the new document is there and can be read, as
//! after a click that navigates; the states' checks decide the rest. Not at the page's
//! `load` event: a page whose image, font or tracker never answers (or whose HTML never
//! ends) never loads, yet shows everything a person needs.
//!
//! chromiumoxide answers its own `Page.navigate` only at `load`, and holds the tab's next
//! `Page.navigate` until then (or its 30 s timeout), so the command goes over a DevTools
//! session of the driver's own, attached to the tab through the tab's session as the
//! frames' are (frames.rs): the browser answers it once the navigation commits.

use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::page::{GetNavigationHistoryParams, NavigateToHistoryEntryParams};
use chromiumoxide::cdp::browser_protocol::target::{
    AttachToTargetParams, DetachFromTargetParams, EventReceivedMessageFromTarget, SessionId,
};
use chromiumoxide::page::Page;
use futures::StreamExt;
use serde_json::{Value, json};
use statewright_engine::{DriverError, DriverResult, Outcome};
use statewright_workflow::is_script_address;

use super::{CALL_BUDGET, ChromeDriver, cdp_failed};
use crate::page::{CallError, Raw};

/// How long a new document may take to be parsed (`DOMContentLoaded`) before it is read as
/// it stands: one whose HTML never ends, or whose parsing waits on a script that never
/// comes, shows what it has so far, and the states' checks decide whether that is enough.
const PARSE_GRACE: Duration = Duration::from_secs(2);

/// How long the document being left may take to say which it is: a page whose script never
/// yields is left all the same.
const ASK_LEFT: Duration = Duration::from_secs(1);

/// What Chromium answers `Page.navigate` with for a text that is no address.
const NOT_AN_ADDRESS: &str = "Cannot navigate to invalid URL";

/// What tells one document from the next, even at the same address, how far it is, and the
/// HTTP status it came with (0 where the browser does not say).
const WHICH_DOCUMENT: &str = "[performance.timeOrigin, location.href, document.readyState, \
     performance.getEntriesByType('navigation')[0]?.responseStatus ?? 0]";

impl ChromeDriver {
    pub(super) async fn navigate(&self, url: &str, patience: Duration) -> DriverResult<Outcome> {
        // Validation refuses one written in the workflow; this one came from a parameter or
        // from the page (an `href` that `extract` read), and is not sent to the browser.
        if is_script_address(url) {
            return Err(DriverError::Invalid(format!(
                "cannot load `{url}`: it is a script, not an address, and navigate_to runs no scripts; click the \
                 link or button that has it"
            )));
        }
        // One budget for going there and for the new document to answer: the action's.
        let deadline = tokio::time::Instant::now() + patience.max(Duration::from_secs(1));
        let left = self.document_now().await;
        let timed_out =
            || DriverError::NotActionable { reason: "timeout".into(), message: format!("loading {url} timed out") };
        let going = |url: String| async move {
            tokio::time::timeout_at(deadline, navigate(self.raw(), &url)).await.map_err(|_| timed_out())?.map_err(|e| {
                match e {
                    CallError::Timeout => timed_out(),
                    CallError::Browser(e) if e == NOT_AN_ADDRESS => {
                        DriverError::Invalid(format!("cannot load `{url}`: it is not a valid address"))
                    }
                    e => DriverError::Browser(e.to_string()),
                }
            })
        };
        let (url, reply) = match going(url.to_owned()).await {
            // A relative address, as an `href` that `extract` read: where the page's own link
            // with it goes, from the page's base (its `<base href>`, else its address).
            Err(DriverError::Invalid(invalid)) => match self.resolved_on_page(url).await {
                Some(absolute) => {
                    let reply = going(absolute.clone()).await?;
                    (absolute, reply)
                }
                None if !url.contains(':') => {
                    return Err(DriverError::Invalid(format!(
                        "cannot load `{url}`: it is not an absolute address, and the page ({}) gives none to \
                         start from; start it with http://, https://, file:// or about:",
                        self.page_url().await
                    )));
                }
                None => return Err(DriverError::Invalid(invalid)),
            },
            went => (url.to_owned(), went?),
        };
        if let Some(error) = reply["errorText"].as_str().filter(|e| !e.is_empty()) {
            // An export's address: the browser downloads instead of showing a page, and the
            // navigation ends as aborted, which says nothing of why.
            if reply["isDownload"] == true {
                return Err(DriverError::Invalid(format!(
                    "cannot load {url}: the server answers with a file to download, not a page ({error}); a \
                     `download` action on the link or button that gets it keeps the file"
                )));
            }
            return Err(DriverError::Invalid(not_loaded(&url, error)));
        }
        // Without a loader, the navigation stayed in the document (an address's `#part`).
        let status = match reply.get("loaderId") {
            Some(_) => self.arrived(left, None, patience, deadline).await?,
            None => None,
        };
        // A missing page or a failing server still shows a page, which the states' checks
        // may not tell from the one wanted: the progress line says what the server answered.
        let detail = match status {
            Some(status) if status >= 400 => format!("{url} (the server answered HTTP {status})"),
            _ => url,
        };
        Ok(Outcome { detail: Some(detail), ..Default::default() })
    }

    /// `url` taken from the page's base, when it is relative to it and that makes it another
    /// address (a page on about:blank has none to give).
    async fn resolved_on_page(&self, url: &str) -> Option<String> {
        let expression = format!(
            "(() => {{ try {{ return new URL({}, document.baseURI).href }} catch (e) {{ return null }} }})()",
            serde_json::to_string(url).ok()?
        );
        let resolved = self.page().evaluate(&expression, ASK_LEFT).await.ok()?;
        let resolved = resolved.as_str()?;
        (resolved != url && !resolved.starts_with("about:")).then(|| resolved.to_owned())
    }

    async fn page_url(&self) -> String {
        let asked = self.page().evaluate("location.href", ASK_LEFT).await;
        asked.ok().and_then(|u| u.as_str().map(str::to_owned)).unwrap_or_else(|| "unknown".into())
    }

    /// `go_back`: the entry before this one in the tab's history, as the Back button.
    pub(super) async fn go_back(&self, patience: Duration) -> DriverResult<Outcome> {
        let history = self.raw().execute(GetNavigationHistoryParams::default()).await.map_err(cdp_failed)?.result;
        let before = usize::try_from(history.current_index)
            .ok()
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| history.entries.get(i))
            .ok_or_else(|| DriverError::Invalid("there is no page before this one in the tab's history".into()))?;
        let deadline = tokio::time::Instant::now() + patience;
        let left = self.document_now().await;
        self.raw().execute(NavigateToHistoryEntryParams::new(before.id)).await.map_err(cdp_failed)?;
        self.arrived(left, Some(&before.url), patience, deadline).await?;
        Ok(Outcome { detail: Some(before.url.clone()), ..Default::default() })
    }

    /// Which document the page shows now (its time origin), when it says so at once.
    async fn document_now(&self) -> Option<f64> {
        let now = self.page().evaluate(WHICH_DOCUMENT, ASK_LEFT);
        tokio::time::timeout(ASK_LEFT, now).await.ok()?.ok()?[0].as_f64()
    }

    /// Waits, until `deadline` (the action's `patience` after it began), until a document
    /// other than `left` answers (showing `url` when the document left is not known), parsed
    /// or given `PARSE_GRACE`: the engine recognises the new page itself, and this keeps the
    /// next state check from reading the document being replaced. The HTTP status the new
    /// document came with, when the browser says.
    async fn arrived(
        &self,
        left: Option<f64>,
        url: Option<&str>,
        patience: Duration,
        deadline: tokio::time::Instant,
    ) -> DriverResult<Option<u64>> {
        let mut new_since = None;
        let mut status = None;
        let mut busy = false;
        loop {
            let budget = deadline.saturating_duration_since(tokio::time::Instant::now()).min(CALL_BUDGET);
            // Bounded here as a whole: a call into a new document may first wait for the
            // library's world in it, which a script that never yields never makes.
            let asked = tokio::time::timeout(budget, self.page().evaluate(WHICH_DOCUMENT, budget));
            match asked.await.unwrap_or(Err(CallError::Timeout)) {
                Ok(document) => {
                    let new = match left {
                        Some(left) => document[0].as_f64() != Some(left),
                        None => url.is_none_or(|url| document[1] == url),
                    };
                    if new {
                        status = document[3].as_u64().filter(|s| *s > 0);
                        let since = *new_since.get_or_insert_with(tokio::time::Instant::now);
                        if document[2] != "loading" || since.elapsed() >= PARSE_GRACE {
                            return Ok(status);
                        }
                    }
                }
                Err(CallError::Navigated) => {}
                Err(CallError::Timeout) => {
                    busy = true;
                    break;
                }
                Err(e) => return Err(DriverError::Browser(e.to_string())),
            }
            if tokio::time::Instant::now() >= deadline {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let within = seconds(patience);
        match new_since {
            // Still being parsed: what it shows so far is for the states' checks.
            Some(_) => Ok(status),
            None if busy => Err(DriverError::NotActionable {
                reason: "timeout".into(),
                message: format!(
                    "the new page did not answer within {within}: a script on it is busy, or it is too large to read in time"
                ),
            }),
            None => Err(DriverError::NotActionable {
                reason: "timeout".into(),
                message: format!("the new page did not show within {within}"),
            }),
        }
    }
}

/// Why `url` could not be loaded, from Chromium's `error`. A server asking for a password
/// (HTTP basic or digest authentication) is answered with none by a browser no person
/// watches, and Chromium names that `net::ERR_INVALID_AUTH_CREDENTIALS` even when none were
/// given: say what the server wants and how to give it.
fn not_loaded(url: &str, error: &str) -> String {
    if error != "net::ERR_INVALID_AUTH_CREDENTIALS" {
        return format!("cannot load {url}: {error}");
    }
    let authority = url.split_once("://").map_or("", |(_, rest)| rest.split(['/', '?', '#']).next().unwrap_or(""));
    if authority.contains('@') {
        format!(
            "cannot load {url}: the server refused the user name and password in the address (HTTP \
             authentication, {error})"
        )
    } else {
        format!(
            "cannot load {url}: the server asks for a user name and password (HTTP authentication, {error}); give \
             them in the address, http://USER:PASSWORD@host/… (a `secret` parameter keeps the password out of the \
             run's records)"
        )
    }
}

/// A time as a person reads it, to a tenth of a second: the action's patience is what is
/// left of its timeout, 2.999997 s of 3.
fn seconds(time: Duration) -> String {
    let tenths = (time.as_millis() + 50) / 100;
    match tenths % 10 {
        0 => format!("{} s", tenths / 10),
        tenth => format!("{}.{tenth} s", tenths / 10),
    }
}

/// Sends `Page.navigate` for `url` to the tab over a session of its own; the browser's reply
/// (`loaderId`, `errorText`) once the navigation commits or fails.
async fn navigate(page: &Page, url: &str) -> Result<Value, CallError> {
    let mut answers = page.event_listener::<EventReceivedMessageFromTarget>().await.map_err(browser)?;
    let attach = AttachToTargetParams::builder().target_id(page.target_id().clone()).flatten(false).build();
    let attached = page.execute(attach.map_err(CallError::Browser)?).await.map_err(browser)?;
    let own = Own { page: page.clone(), session: attached.result.session_id.clone() };
    let session = &own.session;
    let sent = async {
        let message = json!({"id": 1, "method": "Page.navigate", "params": {"url": url}}).to_string();
        let send = Raw {
            method: "Target.sendMessageToTarget".into(),
            params: json!({"message": message, "sessionId": session}),
        };
        page.execute(send).await.map_err(browser)?;
        while let Some(message) = answers.next().await {
            if message.session_id != *session {
                continue;
            }
            let Ok(mut answer) = serde_json::from_str::<Value>(&message.message) else { continue };
            if answer["id"] != 1 {
                continue;
            }
            if let Some(error) = answer.get("error") {
                let message = error["message"].as_str().unwrap_or("the browser refused to navigate");
                return Err(CallError::Browser(message.to_owned()));
            }
            return Ok(answer["result"].take());
        }
        Err(CallError::Browser("the tab closed".into()))
    };
    sent.await
}

/// The navigation's own session, detached when done with (or given up on).
struct Own {
    page: Page,
    session: SessionId,
}

impl Drop for Own {
    fn drop(&mut self) {
        let (page, session) = (self.page.clone(), self.session.clone());
        // In the background: the tab may be closing, and a drop cannot wait.
        tokio::spawn(async move {
            let detach = DetachFromTargetParams { session_id: Some(session) };
            if let Err(e) = page.execute(detach).await {
                tracing::debug!("the navigation's session did not detach: {e}");
            }
        });
    }
}

fn browser(e: chromiumoxide::error::CdpError) -> CallError {
    CallError::Browser(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_left_of_a_timeout_reads_as_the_timeout() {
        assert_eq!(seconds(Duration::from_nanos(2_999_997_938)), "3 s");
        assert_eq!(seconds(Duration::from_millis(1_250)), "1.3 s");
    }
}
