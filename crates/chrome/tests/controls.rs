//! Controls a person sets, against real headless Chromium. `check`: native boxes, a styled
//! one whose input hides behind its label, an ARIA switch its page redraws late, a to-do
//! item holding its box, radio buttons, and the boxes that cannot be set. `select_option` on
//! a component library's select, a button that opens a list of options, several options of a
//! `<select multiple>`. `type` into fields a person fills through a picker (dates, times, a
//! colour, a range).

mod common;

use std::time::Duration;

use common::drive;
use serde_json::{Value, json};
use statewright_chrome::ChromeDriver;
use statewright_engine::{Driver, DriverError, DriverResult, Outcome};
use statewright_workflow::{Action, Target};

const PATIENCE: Duration = Duration::from_secs(3);

fn target(value: Value) -> Target {
    serde_json::from_value(value).expect("a target")
}

async fn check(driver: &mut ChromeDriver, on: Value, checked: bool) -> DriverResult<Outcome> {
    driver.perform(&Action::Check { target: target(on), checked }, PATIENCE).await
}

/// The page's own account of its boxes, and of the clicks each got.
async fn status(driver: &mut ChromeDriver) -> String {
    // The page writes it a little after each click.
    tokio::time::sleep(Duration::from_millis(150)).await;
    common::text_of(driver, "#status").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_box_is_set_by_one_click_and_never_clicked_when_already_set() {
    let (mut driver, _, _held) = drive("check.html").await;
    for (on, checked) in [
        (json!({"css": "#news"}), true),
        // Already checked: nothing to click.
        (json!({"css": "#terms"}), true),
        // Hidden behind its label, which is clicked instead.
        (json!({"css": "#remember"}), true),
        (json!({"role": "switch", "name": "Dark mode"}), true),
        // The item, by its text: the box it holds.
        (json!({"css": "#milk"}), true),
        (json!({"text": "Express"}), true),
        (json!({"css": "#below"}), true),
    ] {
        let done = check(&mut driver, on.clone(), checked).await;
        assert!(done.is_ok(), "{on} → {done:?}");
    }
    let said = status(&mut driver).await;
    assert_eq!(
        said,
        "news=on terms=on remember=on dark=on milk=on ship=express below=on \
         clicks=below:1,dark:1,express:1,milk:1,news:1,remember:1"
    );

    // Entered again, the same state changes nothing; unchecking clicks once more.
    for on in [json!({"css": "#news"}), json!({"role": "switch", "name": "Dark mode"}), json!({"text": "Remember me"})]
    {
        let again = check(&mut driver, on.clone(), true).await.expect("already checked");
        assert!(again.detail.as_deref().is_some_and(|d| d.ends_with("was already checked")), "{on}: {again:?}");
    }
    check(&mut driver, json!({"css": "#news"}), false).await.expect("unchecks");
    check(&mut driver, json!({"role": "switch", "name": "Dark mode"}), false).await.expect("switches off");
    let said = status(&mut driver).await;
    assert!(said.starts_with("news=off terms=on remember=on dark=off"), "{said}");
    assert!(said.ends_with("clicks=below:1,dark:2,express:1,milk:1,news:2,remember:1"), "{said}");
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boxes_that_cannot_be_set_say_why() {
    let (mut driver, _, _held) = drive("check.html").await;
    let radio = check(&mut driver, json!({"text": "Standard"}), false).await;
    assert!(
        matches!(&radio, Err(DriverError::Invalid(m)) if m.contains("radio button") && m.contains("another")),
        "{radio:?}"
    );
    let heading = check(&mut driver, json!({"css": "h1"}), true).await;
    assert!(matches!(&heading, Err(DriverError::Invalid(m)) if m.contains("not a checkbox")), "{heading:?}");
    // Its page refuses every click on it.
    let locked = check(&mut driver, json!({"css": "#locked"}), true).await;
    assert!(
        matches!(&locked, Err(DriverError::NotActionable { reason, message }) if reason == "unchanged" && message.contains("did not make it checked")),
        "{locked:?}"
    );
    let disabled = check(&mut driver, json!({"text": "Unavailable"}), true).await;
    assert!(
        matches!(&disabled, Err(DriverError::NotActionable { reason, message }) if reason == "disabled" && message.contains("input#off")),
        "{disabled:?}"
    );
    // Nothing was changed on the way.
    let said = status(&mut driver).await;
    assert!(said.starts_with("news=off terms=on remember=off dark=off milk=off ship=standard"), "{said}");
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_select_drawn_by_the_page_is_opened_and_its_option_clicked() {
    let (mut driver, _, _held) = drive("listbox.html").await;
    let choose = |css: &str, label: Option<&str>, value: Option<&str>| Action::SelectOption {
        target: target(json!({"css": css})),
        label: label.map(Into::into),
        value: value.map(Into::into),
    };
    let chosen = driver.perform(&choose("#size", Some("Medium"), None), PATIENCE).await.expect("a size is chosen");
    assert!(chosen.detail.as_deref().is_some_and(|d| d.ends_with("→ li \"Medium\"")), "{chosen:?}");
    assert_eq!(common::text_of(&mut driver, "#status").await, "size=Medium");
    // By value, which such an option has none of but its name.
    driver.perform(&choose("#size", None, Some("Large")), PATIENCE).await.expect("another size is chosen");
    assert_eq!(common::text_of(&mut driver, "#status").await, "size=Large");
    // Spelt otherwise than the list shows it: found loosely.
    driver.perform(&choose("#size", Some("medium"), None), PATIENCE).await.expect("chosen in another case");
    assert_eq!(common::text_of(&mut driver, "#status").await, "size=Medium");
    // A list that never opens says so.
    let never = driver.perform(&choose("#colour", Some("Red"), None), Duration::from_secs(1)).await;
    assert!(
        matches!(&never, Err(DriverError::NotActionable { reason, message }) if reason == "no_option" && message.contains("showed no option \"Red\"")),
        "{never:?}"
    );
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_chooses_exactly_those_options_of_a_select_multiple() {
    let (mut driver, _, _held) = drive("multiselect.html").await;
    let choose = |css: &str, label: Value| Action::SelectOption {
        target: target(json!({"css": css})),
        label: Some(serde_json::from_value(label).expect("a choice")),
        value: None,
    };
    let chosen = driver.perform(&choose("#people", json!(["Leia", "Yoda"])), PATIENCE).await.expect("two are chosen");
    assert_eq!(chosen.detail.as_deref(), Some(r#"2 options: "Leia", "Yoda""#), "{chosen:?}");
    // Obi-Wan, chosen when the page loaded, is not any more; the page heard one change.
    assert_eq!(common::text_of(&mut driver, "#status").await, "people=l+y changes=1");
    // A label holding a comma is one option.
    driver.perform(&choose("#people", json!(["Leia, Yoda"])), PATIENCE).await.expect("one is chosen");
    assert_eq!(common::text_of(&mut driver, "#status").await, "people=c changes=2");

    let missing = driver.perform(&choose("#people", json!(["Leia", "Luke"])), PATIENCE).await;
    assert!(
        matches!(&missing, Err(DriverError::Invalid(m)) if m.starts_with(r#"no option with label "Luke" in select#people"#)),
        "{missing:?}"
    );
    let single = driver.perform(&choose("#ship", json!(["Falcon", "X-wing"])), PATIENCE).await;
    assert!(matches!(&single, Err(DriverError::Invalid(m)) if m.contains("takes one option, not 2")), "{single:?}");
    // A list drawn by the page takes one option a click: several are refused before any.
    let drawn = driver.perform(&choose("#drawn", json!(["Small", "Large"])), PATIENCE).await;
    assert!(
        matches!(&drawn, Err(DriverError::Invalid(m)) if m.contains("is no <select multiple>: it takes one option, not 2")),
        "{drawn:?}"
    );
    assert_eq!(common::text_of(&mut driver, "#status").await, "people=c changes=2", "nothing refused changed it");
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fields_filled_through_a_picker_take_their_value_whole_or_say_what_they_take() {
    let (mut driver, _, _held) = drive("pickers.html").await;
    let fill =
        |css: &str, text: &str| Action::Type { target: target(json!({"css": css})), text: text.into(), clear: true };
    for (css, text) in [
        ("#arrival", "2026-11-27"),
        ("#time", "14:30"),
        ("#month", "2026-11"),
        ("#starts", "2026-11-27T14:30"),
        ("#week", "2026-W48"),
        ("#colour", "#1E90FF"),
        ("#guests", "5"),
    ] {
        let done = driver.perform(&fill(css, text), PATIENCE).await;
        assert!(done.is_ok(), "{css} ← {text}: {done:?}");
    }
    let said = status(&mut driver).await;
    assert_eq!(
        said,
        "arrival=2026-11-27 time=14:30 month=2026-11 starts=2026-11-27T14:30 week=2026-W48 colour=#1e90ff guests=5 changes=7"
    );
    // What a field does not take is an error that says what it takes; the field keeps its value.
    for (css, text, takes) in [
        ("#arrival", "27/11/2026", "takes a date as 2026-11-27"),
        ("#colour", "blue", "takes a colour as #1e90ff"),
        ("#guests", "12", "takes a number within its range"),
    ] {
        let refused = driver.perform(&fill(css, text), PATIENCE).await;
        assert!(matches!(&refused, Err(DriverError::Invalid(m)) if m.contains(takes)), "{css} ← {text}: {refused:?}");
    }
    assert_eq!(status(&mut driver).await, said, "nothing changed");

    // A date as the field shows one, as a person types it and a page writes it (en-US, the
    // launched browser's locale): the day must still be one.
    let shown = driver.perform(&fill("#arrival", "12/3/2026"), PATIENCE).await;
    assert!(shown.is_ok(), "{shown:?}");
    assert!(status(&mut driver).await.starts_with("arrival=2026-12-03 "), "{}", status(&mut driver).await);
    let refused = driver.perform(&fill("#arrival", "02/30/2026"), PATIENCE).await;
    let takes = "takes a date as 2026-11-27 or as it shows one, 11/27/2026";
    assert!(matches!(&refused, Err(DriverError::Invalid(m)) if m.contains(takes)), "{refused:?}");

    // A time on a 12-hour clock, as en-US shows one and a page's toLocaleTimeString writes it
    // (Chromium parts the hour and PM with a narrow no-break space): an hour past 12 is none.
    for (text, value) in [("2:35 PM", "14:35"), ("12:05 AM", "00:05"), ("12:40\u{202f}PM", "12:40")] {
        let shown = driver.perform(&fill("#time", text), PATIENCE).await;
        assert!(shown.is_ok(), "{text}: {shown:?}");
        let said = status(&mut driver).await;
        assert!(said.contains(&format!(" time={value} ")), "{text}: {said}");
    }
    let refused = driver.perform(&fill("#time", "13:10 PM"), PATIENCE).await;
    let takes = "takes a time as 14:30 or 2:30 PM";
    assert!(matches!(&refused, Err(DriverError::Invalid(m)) if m.contains(takes)), "{refused:?}");
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_box_taken_away_for_a_moment_and_drawn_again_unchanged_is_not_said_checked() {
    let (mut driver, _, _held) = drive("check-refused.html").await;
    let check = Action::Check { target: target(json!({"role": "checkbox", "name": "Price alerts"})), checked: true };
    let done = driver.perform(&check, PATIENCE).await;
    assert!(matches!(&done, Err(DriverError::NotActionable { reason, .. }) if reason == "unchanged"), "{done:?}");
    assert_eq!(common::text_of(&mut driver, "#status").await, "refused");
    driver.close().await;
}

/// A box whose click takes the page elsewhere (a filter that reloads the listing) is done
/// once the page has gone: the document that held it no longer answers, which is no box
/// taken away for a moment, and the new page is the engine's to recognise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_box_whose_click_leaves_the_page_is_done_as_the_page_goes() {
    let (mut driver, _, _held) = drive("check-filters.html").await;
    let began = std::time::Instant::now();
    let done = check(&mut driver, json!({"css": "#in-stock"}), true).await.expect("the click is done");
    let took = began.elapsed();
    assert!(done.detail.as_deref().is_some_and(|d| d.contains("the page changed")), "{done:?}");
    // Not the second a box taken away for a moment is given to come back.
    assert!(took < Duration::from_millis(950), "took {took:?}");
    driver.close().await;
}

/// A page that takes keys itself (a web terminal adding each keydown's key to its prompt and
/// emptying the field it listens on) is typed into key by key, as a person types; a plain
/// field still takes the text whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_that_takes_keys_itself_gets_every_key() {
    let (mut driver, _, _held) = drive("key-prompt.html").await;
    let type_into = |css: &str, text: &str, clear: bool| Action::Type {
        target: target(json!({"css": css})),
        text: text.into(),
        clear,
    };
    let typed = driver.perform(&type_into("#keys", "rm notes.txt", true), PATIENCE).await;
    assert!(typed.is_ok(), "{typed:?}");
    assert_eq!(common::text_of(&mut driver, "#prompt").await, "rm notes.txt");
    let more = driver.perform(&type_into("#keys", " -f", false), PATIENCE).await;
    assert!(more.is_ok(), "{more:?}");
    assert_eq!(common::text_of(&mut driver, "#prompt").await, "rm notes.txt -f");

    let plain = driver.perform(&type_into("#plain", "Call Ada at 10 o'clock", true), PATIENCE).await;
    assert!(plain.is_ok(), "{plain:?}");
    // A text box reads as what it holds.
    assert_eq!(common::text_of(&mut driver, "#plain").await, "Call Ada at 10 o'clock");
    driver.close().await;
}
