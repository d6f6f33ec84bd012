//! Pages that stop answering. JavaScript dialogs (an `alert` while the page loads,
//! `confirm` and `prompt` on a click, a leave-page confirmation) stall the page until they
//! are answered, and a run answers them; a script that never yields stalls it for good,
//! and the run fails in bounded time, saying why. A page busy for longer than a call into it
//! may take is slow, not a broken browser: the run tries again once it answers. A page whose
//! renderer process died answers nothing ever again: the run ends at once, saying it crashed.

mod common;

use common::{run, workflow};
use serde_json::json;
use statewright_engine::{Event, Failure, RunStatus};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_dialog_is_answered_and_the_run_goes_on() {
    let finished = run(workflow(
        "dialogs.html",
        json!([
            {"name": "left", "checks": [{"type": "url", "match": "pattern", "value": "/page2\\.html$"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            // OK to the confirmation, the prompt's own default as its answer.
            {"name": "answered", "checks": [{"type": "text", "value": "confirm true, prompt Ada"}],
             "actions": [{"type": "click", "target": {"css": "#leave"}}]},
            {"name": "loaded", "checks": [{"type": "text", "match": "contains", "value": "Dialogs"}],
             "actions": [{"type": "click", "target": {"css": "#ask"}}]}
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "loaded", "answered", "left"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_script_never_yields_fails_the_run_saying_so() {
    let finished = run(workflow(
        "busy.html",
        json!([
            {"name": "never", "checks": [{"type": "text", "value": "Done working"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            {"name": "busy", "checks": [{"type": "text", "match": "contains", "value": "Busy"}],
             "actions": [{"type": "click", "target": {"css": "#spin"}}]}
        ]),
        json!({}),
    ))
    .await;
    assert_eq!(finished.report.status, RunStatus::Failed, "{}", finished.report.message);
    assert!(
        finished.report.message.contains("the page did not take the input"),
        "the reason names the stalled page (not the CDP client's 30 s \"Request timed out\"): {}",
        finished.report.message
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_does_not_answer_in_time_is_escalated_not_taken_for_a_dead_browser() {
    let finished = run(workflow(
        "busy-later.html",
        json!([
            {"name": "done", "checks": [{"type": "text", "value": "Finished"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            {"name": "loaded", "checks": [{"type": "text", "value": "Loaded"}],
             "actions": [{"type": "click", "target": {"css": "#late"}}]},
            // Waited for while the page is busy: the call into it, and then the look at the
            // page between tries, do not answer in time. Looking again finds it loaded.
            {"name": "ready", "checks": [{"type": "text", "value": "Ready"}],
             "actions": [{"type": "click", "target": {"css": "#late"}}]}
        ]),
        json!({"action_timeout": 30, "state_timeout": 30}),
    ))
    .await;
    finished.assert_succeeded();
    let timed_out = finished.events.iter().any(
        |e| matches!(e, Event::ActionFinished { error: Some(error), .. } if error.contains("did not answer in time")),
    );
    assert!(timed_out, "the page was slow to answer, and the action said so");
    assert_eq!(finished.states_entered(), ["open", "ready", "loaded", "done"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_busy_while_the_run_looks_for_its_state_is_looked_at_again_not_taken_for_a_dead_browser() {
    let began = std::time::Instant::now();
    let finished = run(workflow(
        "busy-at-first.html",
        json!([
            {"name": "done", "checks": [{"type": "text", "value": "Finished"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            // Shows only once the page's script has been busy for longer than two reads may
            // take: the run's looks for it (verifying `open`) do not answer in time meanwhile.
            {"name": "ready", "checks": [{"type": "text", "value": "Ready"}],
             "actions": [{"type": "click", "target": {"css": "#go"}}]}
        ]),
        json!({"no_states_timeout": 45}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "ready", "done"]);
    assert!(began.elapsed().as_secs() >= 25, "the run waited out the busy page");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_look_at_a_page_that_never_answers_lasts_no_longer_than_no_states_timeout() {
    let began = std::time::Instant::now();
    let finished = run(workflow(
        "busy-for-good.html",
        json!([{"name": "loaded", "checks": [{"type": "text", "value": "Loaded"}], "terminal": {"outcome": "success"}}]),
        json!({"no_states_timeout": 2}),
    ))
    .await;
    assert!(
        matches!(finished.report.failure, Some(Failure::NoState { .. })),
        "a page that never answers shows no state: {}",
        finished.report.message
    );
    // Each look (verifying `open`, looking for a state, then each escalation stage's) gave
    // the page the 10 s a call may take, 12 s with its grace: 40 s and more, for a run
    // that lets a page show no state for 2 s. Now each gives it 2 s: 13-19 s alone, and
    // seen at 25.3 s beside this file's other browsers on two cores, hence the margin.
    assert!(began.elapsed() < std::time::Duration::from_secs(35), "it took {:?}", began.elapsed());
}

/// The renderer processes under `browser` (its pid): killed, as the kernel kills one that
/// runs out of memory.
fn kill_renderers_of(browser: u32) -> usize {
    let parent = |pid: &str| -> Option<String> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // After the command's name in parentheses: state, then the parent's pid.
        stat.rsplit_once(") ")?.1.split(' ').nth(1).map(str::to_owned)
    };
    let mut killed = 0;
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if !String::from_utf8_lossy(&cmdline).contains("--type=renderer") {
            continue;
        }
        let mut up = parent(&pid);
        while let Some(p) = up.filter(|p| p != "0" && p != "1") {
            if p == browser.to_string() {
                let _ = std::process::Command::new("kill").args(["-9", &pid]).status();
                killed += 1;
                break;
            }
            up = parent(&p);
        }
    }
    killed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_renderer_dies_fails_the_run_at_once_saying_so() {
    let chromium = common::Chromium::start();
    let browser = chromium.process.id();
    let killer = tokio::spawn(async move {
        // The page is shown by then, and the run waits in it.
        tokio::time::sleep(std::time::Duration::from_secs(3)).await;
        kill_renderers_of(browser)
    });
    let began = std::time::Instant::now();
    let finished = common::run_attached(
        &chromium.ws,
        workflow(
            "page2.html",
            json!([
                {"name": "never", "checks": [{"type": "text", "value": "Done"}],
                 "terminal": {"outcome": "success", "message": "ok"}},
                {"name": "shown", "checks": [{"type": "text", "value": "Page two"}],
                 "actions": [{"type": "wait", "seconds": 5}, {"type": "click", "target": {"text": "Back"}}]}
            ]),
            json!({}),
        ),
    )
    .await;
    assert!(killer.await.expect("the killer ran") > 0, "a renderer was killed");
    assert_eq!(finished.report.status, RunStatus::Failed, "{}", finished.report.message);
    assert!(
        finished.report.message.contains("the page crashed: its renderer process ended, killed"),
        "the reason says the page crashed, not that it is slow: {}",
        finished.report.message
    );
    // Not looked at again and escalated as a slow page: the run ends at once.
    assert!(began.elapsed() < std::time::Duration::from_secs(15), "it took {:?}", began.elapsed());
}

/// A page that sets its address thousands of times a second (a router stuck in a loop)
/// flooded the browser process itself, which then answered nothing, so the run failed as a
/// browser that stopped answering (and would have taken every run sharing that browser with
/// it). Chromium throttles such a flood, as it does in a person's browser.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_floods_its_history_does_not_stop_the_browser() {
    let finished = run(workflow(
        "history-flood.html",
        json!([
            {"name": "done", "checks": [{"type": "text", "value": "Done"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            {"name": "flooding", "checks": [{"type": "text", "value": "History flood"}],
             "actions": [{"type": "click", "target": {"css": "#go"}}]}
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
}
