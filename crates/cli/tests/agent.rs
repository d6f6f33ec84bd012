//! `statewright agent` as a user runs it, on real Chromium and the demo site, against a model
//! of our own on loopback (the OpenAI wire format; it answers by reading the prompt, as a
//! model would): the goal is reached, every call is on the record, what the model may not do
//! is refused, and the run compiles into a workflow that replays with no model at all.

mod common;

use std::process::Stdio;

use common::{command, open_reviews, statewright, text, wait_for_review};
use regex::Regex;
use serde_json::{Value, json};
use statewright_llm::testing::{Reply, Rule, ScriptedModel, request_text};

const PASSWORD: &str = "correct horse battery staple";
const PRODUCT: &str = "Stainless steel kettle";

/// The elements of the prompt: (number, role, name, the rest of the line).
fn elements(prompt: &str) -> Vec<(u64, String, String, String)> {
    let line = Regex::new(r#"(?m)^\[(\d+)\] (\S+) "(.*?)"(.*)$"#).unwrap();
    line.captures_iter(prompt)
        .map(|c| (c[1].parse().unwrap(), c[2].to_owned(), c[3].to_owned(), c[4].to_owned()))
        .collect()
}

/// A model that reads the page and answers one step, as a competent one would.
fn drive(request: &Value) -> Reply {
    let prompt = request_text(request);
    let els = elements(&prompt);
    let find = |role: &str, name: &str| els.iter().find(|e| e.1 == role && e.2 == name);
    let click = |role: &str, name: &str| match find(role, name) {
        Some(e) => json!({"kind": "click", "element": e.0, "reason": format!("{role} {name}")}),
        None => json!({"kind": "wait", "reason": format!("no {role} {name} yet")}),
    };
    let address = prompt.lines().find_map(|l| l.strip_prefix("Address: ")).unwrap_or("").to_owned();
    let progress = prompt.lines().find(|l| l.starts_with("Progress: ")).unwrap_or("").to_owned();
    let answer = if find("button", "Accept all").is_some() {
        click("button", "Accept all")
    } else if address.contains("confirmation.html") {
        let order = Regex::new(r"NW-\d+").unwrap().find(&prompt).map(|m| m.as_str().to_owned()).unwrap_or_default();
        json!({"kind": "finish", "text": format!("order {order}"), "reason": "the order is confirmed"})
    } else if address.contains("whats-new") {
        click("button", "Skip for now")
    } else if address.contains("login.html") {
        // A page still loading has no form yet: a model waits (a panic here would be the
        // server's, and every later call would find the connection closed).
        let (Some(user), Some(pw)) = (find("textbox", "Username"), find("textbox", "Password")) else {
            return Reply::json(json!({"kind": "wait", "reason": "the sign-in form"}));
        };
        if !user.3.contains("value=\"demo\"") {
            json!({"kind": "type", "element": user.0, "text": "{{username}}", "reason": "sign in"})
        } else if !progress.contains("#password") {
            // First an attempt the checks refuse: a secret into a field that is not a password field.
            if !progress.contains("refused") {
                json!({"kind": "type", "element": user.0, "text": "{{password}}", "reason": "testing the guard"})
            } else {
                json!({"kind": "type", "element": pw.0, "text": "{{password}}", "reason": "sign in"})
            }
        } else {
            click("button", "Sign in")
        }
    } else if address.contains("search.html") {
        // Which product the goal means, as the model learns it: from the parameters' values.
        let Some(wanted) = Regex::new(r#"\{\{product\}\} = "([^"]*)""#).unwrap().captures(&prompt) else {
            return Reply::json(json!({"kind": "abort", "reason": "which product is {{product}}?"}));
        };
        let wanted = wanted[1].to_owned();
        let adds: Vec<_> = els.iter().filter(|e| e.2 == "Add to cart").collect();
        let product = find("combobox", "Product");
        if !adds.is_empty() {
            // The product's own card: its title followed by its category, not a look-alike's.
            let visible = prompt.split("Visible text:").nth(1).unwrap_or("");
            let card = visible.split("Add to cart").position(|s| s.contains(&format!("{wanted} Kitchen")));
            match card.and_then(|i| adds.get(i)) {
                Some(e) => json!({"kind": "click", "element": e.0, "reason": "add the product"}),
                None => json!({"kind": "wait", "reason": "results"}),
            }
        } else if find("option", &wanted).is_some() {
            click("option", &wanted)
        } else if product.is_some_and(|p| p.3.contains(&format!("value=\"{wanted}\"")))
            && !progress.contains("#search \"Search\" — done")
        {
            click("button", "Search")
        } else if product.is_some_and(|p| !p.3.contains("value=")) {
            json!({"kind": "type", "element": product.unwrap().0, "text": "{{product}}", "reason": "search"})
        } else {
            json!({"kind": "wait", "reason": "suggestions or results"})
        }
    } else if address.contains("cart.html") {
        let quantity = find("combobox", "Quantity");
        match quantity {
            Some(q) if !q.3.contains("value=\"2\"") => {
                json!({"kind": "select", "element": q.0, "option": "{{quantity}}", "reason": "two"})
            }
            _ => click("button", "Place order"),
        }
    } else {
        click("link", "Sign in")
    };
    Reply::json(answer)
}

/// `statewright agent` buying on the demo site (seed 1) with the model at `url`.
fn purchase(goal: &str, url: &str) -> Vec<String> {
    let mut args: Vec<String> =
        ["agent", "--goal", goal, "--url", "{{site}}/?seed=1", "--demo-site"].map(String::from).into();
    for param in
        ["seed=1", "username=demo", &format!("password={PASSWORD}"), &format!("product={PRODUCT}"), "quantity=2"]
    {
        args.extend(["-p".to_owned(), param.to_owned()]);
    }
    args.extend(["--llm-url", url, "--llm-model", "scripted", "--json"].map(String::from));
    args
}

#[test]
fn an_agent_run_reaches_the_goal_and_compiles_to_a_workflow_that_needs_no_model() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(ScriptedModel::start(vec![Rule::respond("drive a web browser", drive)]));
    let mut args = purchase("Buy {{quantity}} of {{product}} and tell me the order number", &model.url());
    // A model that got stuck fails the test, rather than wait for a person who never comes.
    args.push("--no-review".into());
    let out = command(&args.iter().map(String::as_str).collect::<Vec<_>>(), &runs).output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["status"], "succeeded", "{summary}");
    assert!(summary["answer"].as_str().unwrap().starts_with("order NW-"), "{summary}");
    let calls = summary["llm_calls"].as_u64().unwrap();
    assert!(calls >= 10, "{calls} calls: {stderr}");
    assert!(stderr.contains("refused: "), "the secret typed into a text field is refused: {stderr}");

    // Every call is on the record; the password is in no prompt, record or file.
    let requests = model.requests();
    assert_eq!(requests.len() as u64, calls);
    assert!(requests.iter().all(|r| !request_text(r).contains(PASSWORD)), "a prompt holds the password");
    let id = summary["run_id"].as_str().unwrap();
    let shown = statewright(&["runs", "show", id, "--json"], &runs);
    let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(detail["model_calls"].as_array().unwrap().len() as u64, calls);
    assert_eq!(detail["run"]["status"], "succeeded");
    let db = std::fs::read(runs.join("statewright.db")).unwrap();
    assert!(!String::from_utf8_lossy(&db).contains(PASSWORD));

    // The run compiles into a workflow that replays on another seed with no model.
    let draft = dir.path().join("draft.json");
    let draft_arg = draft.display().to_string();
    let compiled = statewright(&["compile", id, "--out", &draft_arg, "-p", "seed=1"], &runs);
    assert_eq!(compiled.status.code(), Some(0), "{}", text(&compiled.stderr));
    let password = format!("password={PASSWORD}");
    let replay = statewright(&["run", &draft_arg, "--demo-site", "-p", "seed=4", "-p", &password, "--json"], &runs);
    let summary: Value = serde_json::from_slice(&replay.stdout).unwrap_or(Value::Null);
    assert_eq!(summary["status"], "succeeded", "{}", text(&replay.stderr));
    assert_eq!(summary["llm_calls"], 0);
}

/// A model that reads a voucher code in the tab its link opened, notes it, goes back to the
/// form (closing the code's tab) and redeems it: what it read is gone from the page it acts
/// on, so only its note carries the code there.
fn redeem(request: &Value) -> Reply {
    let prompt = request_text(request);
    let els = elements(&prompt);
    let title = prompt.lines().find_map(|l| l.strip_prefix("Title: ")).unwrap_or("").to_owned();
    let noted = Regex::new(r#"Your notes: "code (VX-\d+)""#).unwrap().captures(&prompt).map(|c| c[1].to_owned());
    let code_box = els.iter().find(|e| e.1 == "textbox" && e.2 == "Voucher code");
    let answer = match (title.as_str(), noted) {
        ("Your voucher", _) => {
            let code = Regex::new(r"Code: (VX-\d+)").unwrap().captures(&prompt).map(|c| c[1].to_owned());
            let before = Regex::new(r"(?m)^Tab (\d+): .*\(the tab before this one\)$").unwrap();
            match (code, before.captures(&prompt)) {
                (Some(code), Some(tab)) => json!({"kind": "switch_tab", "tab": tab[1].parse::<u64>().unwrap(),
                    "close": true, "note": format!("code {code}"), "reason": "back to the form with the code"}),
                _ => json!({"kind": "wait", "reason": "the code and the tab before"}),
            }
        }
        (_, _) if prompt.contains("Redeemed VX-") => json!({"kind": "finish", "text": "redeemed", "reason": "done"}),
        ("Voucher form", None) => {
            let link = els.iter().find(|e| e.1 == "link" && e.2 == "Show my voucher code").unwrap();
            json!({"kind": "click", "element": link.0, "reason": "the code is in another tab"})
        }
        ("Voucher form", Some(code)) => match code_box {
            Some(b) if !b.3.contains(&format!("value=\"{code}\"")) => {
                json!({"kind": "type", "element": b.0, "text": code, "reason": "the noted code"})
            }
            _ => {
                let redeem = els.iter().find(|e| e.1 == "button" && e.2 == "Redeem").unwrap();
                json!({"kind": "click", "element": redeem.0, "reason": "redeem"})
            }
        },
        _ => json!({"kind": "abort", "reason": format!("unknown page {title}")}),
    };
    Reply::json(answer)
}

#[test]
fn an_agent_reads_in_another_tab_goes_back_with_a_note_and_its_run_replays_the_switch() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let site = common::Site::dir(&common::repo().join("crates/chrome/tests/fixtures"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(ScriptedModel::start(vec![Rule::respond("drive a web browser", redeem)]));
    let start = format!("{}/tabs-voucher.html", site.1);
    let url = model.url();
    let args = ["agent", "--goal", "Redeem my voucher", "--url", &start, "--no-review", "--json"];
    let out = statewright(&[&args[..], &["--llm-url", &url, "--llm-model", "scripted"]].concat(), &runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["answer"], "redeemed", "{summary}");
    let prompts: Vec<String> = model.requests().iter().map(request_text).collect();
    assert!(prompts.iter().any(|p| p.contains("Your notes: \"code VX-4711\"")), "the note comes back");
    assert!(stderr.contains("switch_tab now on"), "{stderr}");

    // No model: the switch replays, and the code's tab is closed again on the way.
    let id = summary["run_id"].as_str().unwrap();
    let draft = dir.path().join("voucher.json");
    let compiled = statewright(&["compile", id, "--out", &draft.display().to_string()], &runs);
    assert_eq!(compiled.status.code(), Some(0), "{}", text(&compiled.stderr));
    let workflow = std::fs::read_to_string(&draft).unwrap();
    assert!(workflow.contains(r#""type": "switch_tab""#), "{workflow}");
    let replay = statewright(&["run", &draft.display().to_string(), "--json"], &runs);
    let summary: Value = serde_json::from_slice(&replay.stdout).unwrap_or(Value::Null);
    assert_eq!(summary["status"], "succeeded", "{}", text(&replay.stderr));
    assert_eq!(summary["llm_calls"], 0);
    let shown = statewright(&["runs", "show", summary["run_id"].as_str().unwrap(), "--json"], &runs);
    let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let last = detail["steps"].as_array().unwrap().last().unwrap().clone();
    assert!(last["page"]["text"].as_str().unwrap().contains("Redeemed VX-4711"), "{last:#}");
}

/// A model that moves a card on a board by dragging it onto the column's heading, named by
/// its text (the column is no element one acts on), and says when the board shows it moved.
fn move_card(request: &Value) -> Reply {
    let prompt = request_text(request);
    let card = elements(&prompt).into_iter().find(|e| e.3.contains("\"Call Ada\"") && e.3.contains("draggable"));
    let answer = match card {
        _ if prompt.contains("done=call") => json!({"kind": "finish", "text": "moved", "reason": "it is in Done"}),
        Some(card) => json!({"kind": "drag", "element": card.0, "to": "Done", "reason": "move it to Done"}),
        None => json!({"kind": "abort", "reason": "no card to move"}),
    };
    Reply::json(answer)
}

#[test]
fn an_agent_drags_a_card_onto_a_column_by_its_heading_and_the_run_replays_the_drag() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let site = common::Site::dir(&common::repo().join("crates/chrome/tests/fixtures"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(ScriptedModel::start(vec![Rule::respond("drive a web browser", move_card)]));
    let start = format!("{}/drag.html", site.1);
    let url = model.url();
    let args = ["agent", "--goal", "Move Call Ada to Done", "--url", &start, "--no-review", "--json"];
    let out = statewright(&[&args[..], &["--llm-url", &url, "--llm-model", "scripted"]].concat(), &runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((summary["answer"].as_str(), summary["llm_calls"].as_u64()), (Some("moved"), Some(2)), "{summary}");

    let id = summary["run_id"].as_str().unwrap();
    let draft = dir.path().join("board.json");
    let compiled = statewright(&["compile", id, "--out", &draft.display().to_string()], &runs);
    assert_eq!(compiled.status.code(), Some(0), "{}", text(&compiled.stderr));
    let workflow = std::fs::read_to_string(&draft).unwrap();
    assert!(workflow.contains(r#""type": "drag""#), "{workflow}");
    let replay = statewright(&["run", &draft.display().to_string(), "--json"], &runs);
    let summary: Value = serde_json::from_slice(&replay.stdout).unwrap_or(Value::Null);
    assert_eq!(
        (summary["status"].as_str(), summary["llm_calls"].as_u64()),
        (Some("succeeded"), Some(0)),
        "{}",
        text(&replay.stderr)
    );
}

#[test]
fn an_agent_run_needs_a_model_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = statewright(&["agent", "--goal", "anything", "--url", "http://127.0.0.1:9/"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("needs a model"), "{}", text(&out.stderr));
}

/// The competent model, except that it gives up on the cart page until a person has
/// helped, and on the confirmation page, where only a person says the goal is reached.
fn drive_needing_help(request: &Value) -> Reply {
    let prompt = request_text(request);
    let popup = elements(&prompt).iter().any(|e| e.1 == "button" && e.2 == "Accept all");
    let address = prompt.lines().find_map(|l| l.strip_prefix("Address: ")).unwrap_or("").to_owned();
    let helped = prompt.lines().any(|l| l.starts_with("Progress: ") && l.contains("a person did"));
    let give_up = |reason: &str| Reply::json(json!({"kind": "abort", "reason": reason}));
    match () {
        _ if popup => drive(request),
        _ if address.contains("cart.html") && !helped => give_up("I cannot work out the quantity control"),
        _ if address.contains("cart.html") => {
            Reply::json(json!({"kind": "wait", "reason": "the order is being placed"}))
        }
        _ if address.contains("confirmation.html") => give_up("I cannot tell whether the order went through"),
        _ => drive(request),
    }
}

#[test]
fn a_stuck_agent_asks_a_person_who_helps_it_on_and_says_when_the_goal_is_reached() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(ScriptedModel::start(vec![Rule::respond("drive a web browser", drive_needing_help)]));
    let args = purchase("Buy {{quantity}} of {{product}}", &model.url());
    let mut run = command(&args.iter().map(String::as_str).collect::<Vec<_>>(), &runs)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    // Stuck on the cart page: the review shows the page and offers the goal as a state.
    let cart = wait_for_review(&runs, &mut run, &[]);
    assert!(cart["request"]["reason"].as_str().unwrap().contains("the model gave up"), "{cart:#}");
    assert!(cart["request"]["observation"]["url"].as_str().unwrap().contains("cart.html"), "{cart:#}");
    assert_eq!(cart["request"]["states"], json!(["Goal reached"]));
    assert!(runs.join(cart["screenshot"].as_str().expect("a screenshot")).exists());
    let cart_id = cart["id"].as_i64().unwrap();
    let resolved = statewright(
        &[
            "review",
            "resolve",
            &cart_id.to_string(),
            "actions",
            "--action",
            r##"{"type": "select_option", "target": {"css": "#quantity"}, "value": "2"}"##,
            "--action",
            r##"{"type": "click", "target": {"css": "#place-order"}}"##,
        ],
        &runs,
    );
    assert_eq!(resolved.status.code(), Some(0), "{}", text(&resolved.stderr));

    // The model carries on from there, and is stuck again at the confirmation: the person
    // says the goal is reached.
    let done = wait_for_review(&runs, &mut run, &[cart_id]);
    assert!(done["request"]["observation"]["url"].as_str().unwrap().contains("confirmation.html"), "{done:#}");
    let bad = statewright(&["review", "resolve", &done["id"].to_string(), "declare-state", "--state", "Cart"], &runs);
    assert_eq!(bad.status.code(), Some(2), "an agent run has no state `Cart`");
    let resolved =
        statewright(&["review", "resolve", &done["id"].to_string(), "declare-state", "--state", "Goal reached"], &runs);
    assert_eq!(resolved.status.code(), Some(0), "{}", text(&resolved.stderr));

    let out = run.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["message"], "a person says the goal is reached", "{summary}");
    assert!(stderr.contains("(a person) click"), "the person's steps are done and shown: {stderr}");
    // The person's steps are on the run's record, and so is the order they placed.
    let shown = statewright(&["runs", "show", summary["run_id"].as_str().unwrap(), "--json"], &runs);
    let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let actions = detail.to_string();
    assert!(actions.contains("#place-order"), "the person's click is recorded");
    let prompts: Vec<String> = model.requests().iter().map(request_text).collect();
    assert!(prompts.iter().any(|p| p.contains("a person did: click")), "the model is told what the person did");
}

#[test]
fn a_stuck_agent_fails_without_a_person_gives_up_waiting_with_exit_3_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(ScriptedModel::start(vec![Rule::always(Reply::json(
        json!({"kind": "abort", "reason": "this page makes no sense to me"}),
    ))]));
    let url = model.url();
    let agent = |extra: &[&str]| {
        let mut args = vec!["agent", "--goal", "anything", "--url", "{{site}}/", "--demo-site"];
        args.extend(["--llm-url", &url, "--llm-model", "scripted", "--json"]);
        args.extend(extra);
        statewright(&args, &runs)
    };

    let out = agent(&["--no-review"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(summary["message"].as_str().unwrap().contains("the model gave up: this page makes no sense"), "{summary}");
    assert!(open_reviews(&runs).is_empty(), "nobody was asked");

    let out = agent(&["--review-timeout", "1"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["failure"]["kind"], "review_timeout", "{summary}");
    assert!(open_reviews(&runs).is_empty(), "the timed-out review is no longer open");

    // Stopped (a CI runner's timeout, `kill`) while it waits: cancelled, nothing left open.
    let mut args = vec!["agent", "--goal", "anything", "--url", "{{site}}/", "--demo-site"];
    args.extend(["--llm-url", &url, "--llm-model", "scripted", "--json"]);
    let mut child = command(&args, &runs).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    wait_for_review(&runs, &mut child, &[]);
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["status"], "cancelled", "{summary}");
    assert_eq!(summary["message"], "cancelled: terminated (SIGTERM)", "{summary}");
    let last = text(&out.stderr).lines().rev().find(|l| l.starts_with('✗')).unwrap_or_default().to_owned();
    assert!(last.starts_with("✗ cancelled: terminated (SIGTERM) · "), "said once: {last}");
    assert!(open_reviews(&runs).is_empty(), "the review of a stopped run is not left open");
}
