//! A task file for the agent (`statewright agent --tasks`): a goal and a first page per row,
//! as this project writes them (`id`, `goal`, `url`) or as public benchmarks do — WebVoyager
//! (`id`, `ques`, `web`), Online-Mind2Web (`task_id`, `confirmed_task`, `website`), WebArena
//! (`task_id`, `intent`, `start_url`). CSV, JSON Lines or a JSON array. A task's other plain
//! fields are values the model may type as `{{name}}`, except a benchmark's bookkeeping
//! (WebArena's `intent_template`, `storage_state`…), which stays in the results table only;
//! nested ones (WebArena's `eval`) are the benchmark's grading, not the task, and are left out.

use std::path::Path;

use crate::error::RunError;
use crate::rows::{Nested, Row, read_rows};

/// The names a task's fields have once read, whatever the file called them.
pub const ID: &str = "id";
pub const GOAL: &str = "goal";
pub const URL: &str = "url";

/// Each field's names, ours first.
const NAMES: [(&str, &[&str]); 3] = [
    (ID, &["id", "task_id"]),
    (GOAL, &["goal", "ques", "confirmed_task", "intent", "task", "question"]),
    (URL, &["url", "web", "website", "start_url"]),
];

/// The tasks, each with `id` (its row number when the file gives none), `goal` and `url`
/// first, then its values. A task without a goal or a first page is an error naming its line.
pub fn read_tasks(path: &Path) -> Result<Vec<Row>, RunError> {
    let rows = read_rows(path, Nested::Skipped)?;
    rows.into_iter()
        .enumerate()
        .map(|(i, row)| {
            task(row, i + 1).map_err(|what| RunError::invalid("tasks", format!("{}:{what}", path.display())))
        })
        .collect()
}

fn task(row: Row, number: usize) -> Result<Row, String> {
    let mut rest: Vec<(String, String)> = row.values().map(|(k, v)| (k.to_owned(), v.to_owned())).collect();
    let mut values = Vec::new();
    for (field, names) in NAMES {
        let found: Vec<&str> = names.iter().copied().filter(|n| row.has(n)).collect();
        // Two ids are two labels, not two tasks: ours names it, the other stays a field
        // (WebVoyager's GAIA_web.jsonl gives GAIA's `task_id` beside WebVoyager's `id`).
        if found.len() > 1 && field != ID {
            return Err(format!("{}: `{}` and `{}` both name the task's {field}", row.line, found[0], found[1]));
        }
        let taken = found.first().and_then(|n| rest.iter().position(|(k, _)| k == n)).map(|at| rest.remove(at).1);
        match (field, taken.filter(|v| !v.trim().is_empty())) {
            (ID, None) => values.push((ID.to_owned(), number.to_string())),
            (_, None) => {
                return Err(format!("{}: the task has no {field} (a `{}` field)", row.line, names.join("`, `")));
            }
            (_, Some(value)) => values.push((field.to_owned(), value.trim().to_owned())),
        };
    }
    values.extend(rest);
    let mut task = Row::of_pairs(row.line, row.header_line, values);
    task.file = row.file.clone();
    Ok(task)
}

/// Fields a benchmark keeps about a task rather than in it: how it was made (a template
/// with `{{placeholders}}` of its own), how the site is set up, how hard it is, another
/// benchmark's id for it, the answer it is graded against (GAIA's `Final answer`, in
/// WebVoyager's GAIA_web.jsonl). Shown to the model they would be noise, read as parameters
/// to fill, or the answer given away. Matched whatever their case (GAIA's `Level`).
const BOOKKEEPING: [&str; 10] = [
    "task_id",
    "final answer",
    "intent_template",
    "intent_template_id",
    "storage_state",
    "require_login",
    "require_reset",
    "geolocation",
    "reference_length",
    "level",
];

/// A task's values for the model: its fields other than the id, the goal, the page and a
/// benchmark's bookkeeping.
pub fn values(task: &Row) -> impl Iterator<Item = (&str, &str)> {
    task.values()
        .filter(|(k, _)| ![ID, GOAL, URL].contains(k) && !BOOKKEEPING.iter().any(|b| b.eq_ignore_ascii_case(k)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(pairs: &[(&str, &str)]) -> Row {
        Row::of_pairs(7, 7, pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
    }

    fn fields(task: &Row) -> Vec<String> {
        task.values().map(|(k, v)| format!("{k}={v}")).collect()
    }

    #[test]
    fn benchmark_fields_are_read_as_ours() {
        let webvoyager =
            row(&[("web_name", "Allrecipes"), ("id", "Allrecipes--0"), ("ques", "Find"), ("web", "https://a/")]);
        assert_eq!(
            fields(&task(webvoyager, 1).unwrap()),
            ["id=Allrecipes--0", "goal=Find", "url=https://a/", "web_name=Allrecipes"]
        );
        let mind2web =
            row(&[("task_id", "x1"), ("confirmed_task", " Book "), ("website", "https://b/"), ("level", "easy")]);
        assert_eq!(fields(&task(mind2web, 1).unwrap()), ["id=x1", "goal=Book", "url=https://b/", "level=easy"]);
        let ours = task(row(&[("goal", "Buy {{n}}"), ("url", "{{site}}/"), ("n", "2")]), 4).unwrap();
        assert_eq!(fields(&ours), ["id=4", "goal=Buy {{n}}", "url={{site}}/", "n=2"]);
        assert_eq!(values(&ours).map(|(k, _)| k).collect::<Vec<_>>(), ["n"]);
    }

    #[test]
    fn a_benchmarks_bookkeeping_is_kept_but_not_given_to_the_model() {
        let webarena = task(
            row(&[
                ("task_id", "3"),
                ("intent", "What are the top-2 best selling products in 2022"),
                ("start_url", "__SHOPPING_ADMIN__"),
                ("intent_template", "What are the top-{{n}} best selling products in {{year}}"),
                ("require_login", "true"),
                ("storage_state", "./.auth/shopping_admin_state.json"),
                ("sites_note", "admin"),
            ]),
            1,
        )
        .unwrap();
        assert_eq!(webarena.columns().len(), 7, "the results table keeps every field: {:?}", fields(&webarena));
        assert_eq!(values(&webarena).map(|(k, _)| k).collect::<Vec<_>>(), ["sites_note"]);
    }

    #[test]
    fn webvoyagers_gaia_file_is_read_with_its_reference_answer_kept_from_the_model() {
        // As WebVoyager's data/GAIA_web.jsonl writes a task: GAIA's `task_id` beside
        // WebVoyager's `id` (the one WebVoyager's run.py names the task by), and GAIA's
        // grading, `Level` and `Final answer`.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("GAIA_web.jsonl");
        let line = r#"{"task_id": "e1fc63a2-da7a", "Level": 1, "Final answer": "17", "id": "level1-0", "web": "https://www.google.com/", "ques": "How many thousand hours?", "web_name": "Google"}"#;
        std::fs::write(&file, format!("{line}\n")).unwrap();
        let tasks = read_tasks(&file).unwrap();
        assert_eq!(
            fields(&tasks[0]),
            [
                "id=level1-0",
                "goal=How many thousand hours?",
                "url=https://www.google.com/",
                "task_id=e1fc63a2-da7a",
                "Level=1",
                "Final answer=17",
                "web_name=Google"
            ],
            "the results table keeps every field"
        );
        assert_eq!(values(&tasks[0]).map(|(k, _)| k).collect::<Vec<_>>(), ["web_name"], "the model sees");
    }

    #[test]
    fn a_task_without_a_goal_or_a_page_or_with_two_goals_says_so() {
        let no_url = task(row(&[("goal", "Find")]), 1).unwrap_err();
        assert_eq!(no_url, "7: the task has no url (a `url`, `web`, `website`, `start_url` field)");
        assert!(task(row(&[("goal", " "), ("url", "https://a/")]), 1).unwrap_err().contains("has no goal"));
        let two = task(row(&[("goal", "a"), ("intent", "b"), ("url", "https://a/")]), 1).unwrap_err();
        assert_eq!(two, "7: `goal` and `intent` both name the task's goal");
    }
}
