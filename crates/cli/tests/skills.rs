//! Skills on real Chromium and the demo site: the bundled `demo-sign-in` skill (with pre-
//! and postconditions) used by two workflows; a seed 003 skill folder imported with
//! `skills import`, used in place of the purchase's search, run, and exported back;
//! mistakes in a `use_skill` reported with their place before anything runs.

mod common;

use common::{fifo, in_time, repo, statewright, text};
use serde_json::{Value, json};

fn states_of(runs: &std::path::Path, id: &str) -> Vec<String> {
    let shown = statewright(&["runs", "show", id, "--json"], runs);
    let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
    detail["steps"].as_array().unwrap().iter().map(|s| s["state"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn one_skill_with_pre_and_postconditions_serves_two_workflows() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    for (workflow, output) in
        [("workflows/demo-account.json", "account"), ("workflows/demo-orders.json", "newest_order")]
    {
        let out = statewright(&["run", workflow, "--demo-site", "-p", "seed=11", "--no-review", "--json"], &runs);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{workflow}: {stderr}");
        let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(summary["outputs"][output].is_string(), "{workflow}: {summary:#}");
        let states = states_of(&runs, summary["run_id"].as_str().unwrap());
        let skill_steps: Vec<&String> = states.iter().filter(|s| s.starts_with("demo-sign-in › ")).collect();
        assert!(skill_steps.contains(&&"demo-sign-in › Login form".to_owned()), "{workflow}: {states:?}");
        assert!(skill_steps.last().is_some_and(|s| s.ends_with("Signed in")), "{workflow}: {states:?}");
        assert!(stderr.contains("password=\"••••••\""), "the secret argument is masked: {stderr}");
    }
    let db = std::fs::read(runs.join("statewright.db")).unwrap();
    assert!(!String::from_utf8_lossy(&db).contains("correct horse"), "no record shows the password");
}

/// The purchase with its search page done by the `search-product` skill.
fn purchase_with_skill() -> Value {
    let mut shop: Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("workflows/demo-shop.json")).unwrap()).unwrap();
    let search = shop["states"].as_array_mut().unwrap().iter_mut().find(|s| s["name"] == "Search page").unwrap();
    search["actions"] = json!([{"type": "use_skill", "skill": "search-product",
                                "args": {"site": "{{site}}", "product": "{{product}}"}}]);
    shop
}

#[test]
fn a_seed_003_skill_folder_is_imported_run_and_exported() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let skills = dir.path().join("skills");
    let fixture = repo().join("crates/cli/tests/fixtures/seed003");
    let imported = statewright(
        &["skills", "import", fixture.to_str().unwrap(), "--skills", skills.to_str().unwrap(), "--json"],
        &runs,
    );
    assert_eq!(imported.status.code(), Some(0), "{}", text(&imported.stderr));
    let report: Value = serde_json::from_slice(&imported.stdout).unwrap();
    assert_eq!(report[0]["name"], "search-product");
    assert_eq!(report[0]["actions"], 3);
    let again =
        statewright(&["skills", "import", fixture.to_str().unwrap(), "--skills", skills.to_str().unwrap()], &runs);
    assert_eq!(again.status.code(), Some(2), "an existing skill is not replaced without --force");
    assert!(text(&again.stderr).contains("pass --force"));
    // A skill's file is written as a workflow's is: a pipe in its place is refused, not
    // waited on for ever, and a link whose file is gone is not written through.
    let import = |force: &[&str]| {
        let args = ["skills", "import", fixture.to_str().unwrap(), "--skills", skills.to_str().unwrap()];
        in_time(&[&args[..], force].concat(), &runs)
    };
    let file = skills.join("search-product.json");
    std::fs::remove_file(&file).unwrap();
    fifo(&file);
    let (code, stderr) = import(&["--force"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("is a named pipe (FIFO), not a regular file: nothing was written"), "{stderr}");
    std::fs::remove_file(&file).unwrap();
    // The link's folder is there, the file it names not (moved, or its branch switched).
    let gone = dir.path().join("elsewhere/search-product.json");
    std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
    std::os::unix::fs::symlink(&gone, &file).unwrap();
    let (code, stderr) = import(&[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("exists already; pass --force"), "{stderr}");
    let (code, stderr) = import(&["--force"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("which does not exist: nothing was written"), "{stderr}");
    assert!(!gone.exists(), "nothing made where the link leads");
    std::fs::remove_file(&file).unwrap();
    assert_eq!(import(&[]).0, Some(0));

    // A workflow in workflows/ finds the skill in the skills/ folder beside it.
    std::fs::create_dir_all(dir.path().join("workflows")).unwrap();
    let workflow = dir.path().join("workflows/buy.json");
    std::fs::write(&workflow, serde_json::to_string_pretty(&purchase_with_skill()).unwrap()).unwrap();
    let args = ["run", workflow.to_str().unwrap(), "--demo-site", "-p", "seed=2", "-p", "product=Cast iron skillet"];
    let out = statewright(&[&args[..], &["--no-review", "--json"]].concat(), &runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["end_state"], "Order confirmed", "{stderr}");
    assert!(states_of(&runs, summary["run_id"].as_str().unwrap()).contains(&"search-product › Steps".to_owned()));
    assert!(stderr.contains("use_skill search-product"), "{stderr}");

    let listed = statewright(&["skills", "list", "--skills", skills.to_str().unwrap(), "--json"], &runs);
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed[0]["parameters"]["product"]["default"], "Stainless steel kettle");

    let out_dir = dir.path().join("exported");
    let exported = statewright(
        &[
            "skills",
            "export",
            "search-product",
            "--skills",
            skills.to_str().unwrap(),
            "--to",
            out_dir.to_str().unwrap(),
        ],
        &runs,
    );
    assert_eq!(exported.status.code(), Some(0), "{}", text(&exported.stderr));
    let actions: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("001-search-product/actions.json")).unwrap())
            .unwrap();
    assert_eq!(actions[1]["element_role"], "option");
    assert_eq!(actions[1]["element_label"], "{{product}}");
    let skill_md = out_dir.join("001-search-product/SKILL.md");
    std::fs::remove_file(&skill_md).unwrap();
    fifo(&skill_md);
    let args = ["skills", "export", "search-product", "--skills", skills.to_str().unwrap(), "--to"];
    let (code, stderr) = in_time(&[&args[..], &[out_dir.to_str().unwrap()]].concat(), &runs);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("SKILL.md is a named pipe (FIFO), not a regular file"), "{stderr}");
}

#[test]
fn a_use_skill_mistake_is_reported_in_place_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    std::fs::create_dir_all(dir.path().join("workflows")).unwrap();
    std::fs::create_dir_all(dir.path().join("skills")).unwrap();
    std::fs::copy(repo().join("skills/demo-sign-in.json"), dir.path().join("skills/demo-sign-in.json")).unwrap();
    let mut account: Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("workflows/demo-account.json")).unwrap()).unwrap();
    let login = account["states"].as_array_mut().unwrap().iter_mut().find(|s| s["name"] == "Login page").unwrap();
    login["actions"][0]["args"] = json!({"site": "{{site}}", "user": "{{username}}"});
    let file = dir.path().join("workflows/account.json");
    std::fs::write(&file, serde_json::to_string_pretty(&account).unwrap()).unwrap();

    for command in [vec!["validate", file.to_str().unwrap()], vec!["run", file.to_str().unwrap(), "--demo-site"]] {
        let out = statewright(&command, &runs);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {stderr}");
        assert!(stderr.contains("skill `demo-sign-in` has no parameter `user`"), "{stderr}");
        assert!(stderr.contains("skill `demo-sign-in` needs the argument `password`"), "{stderr}");
        assert!(stderr.contains("account.json:"), "names the file with line and column: {stderr}");
    }
    assert!(!runs.join("statewright.db").exists() || states_is_empty(&runs), "no run was started");
}

fn states_is_empty(runs: &std::path::Path) -> bool {
    let listed = statewright(&["runs", "list", "--json"], runs);
    serde_json::from_slice::<Value>(&listed.stdout).map(|v| v.as_array().is_none_or(Vec::is_empty)).unwrap_or(true)
}

#[test]
fn skills_are_mined_where_two_successful_runs_agree_and_written_when_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let skills = dir.path().join("skills");
    let mut ids = Vec::new();
    // Two purchases of different products, and one that fails at the login.
    for (seed, product, password) in [
        ("3", "Cast iron skillet", "correct horse battery staple"),
        ("8", "Stainless steel kettle", "correct horse battery staple"),
        ("5", "Cast iron skillet", "wrong"),
    ] {
        let param = |name: &str, value: &str| format!("{name}={value}");
        let (seed, product, password) = (param("seed", seed), param("product", product), param("password", password));
        let args = ["run", "workflows/demo-shop.json", "--demo-site", "-p", &seed, "-p", &product, "-p", &password];
        let out = statewright(&[&args[..], &["--no-review", "--json"]].concat(), &runs);
        let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
        ids.push(summary["run_id"].as_str().unwrap().to_owned());
    }
    let mine = |extra: &[&str]| {
        let mut args = vec!["skills", "mine", &ids[0], &ids[1], &ids[2], "--skills", skills.to_str().unwrap()];
        args.extend(extra);
        statewright(&args, &runs)
    };
    let out = mine(&["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["skipped"][0].as_str().unwrap().contains("not a successful run"), "{report:#}");
    let proposals = report["proposals"].as_array().unwrap();
    let search = proposals.iter().find(|p| p["skill"]["name"] == "search-product").expect("the search is proposed");
    assert_eq!(search["runs"].as_array().unwrap().len(), 2, "from both successful runs");
    let actions = &search["skill"]["states"][0]["actions"];
    assert_eq!(actions[0]["text"], "{{product}}", "what was typed is a variable: {actions:#}");
    assert_eq!(actions[1]["target"]["name"], "{{product}}", "so is the suggestion named after it");
    assert!(actions[3]["target"]["xpath"].as_str().unwrap().contains("'{{product}}'"), "and the card found by it");
    assert_eq!(search["skill"]["skill"]["pre"][0]["value"], "{{site}}/search.html");
    let login = proposals.iter().find(|p| p["skill"]["name"] == "login-username").unwrap();
    assert_eq!(login["skill"]["parameters"]["password"]["secret"], true);
    assert!(login["skill"]["parameters"]["password"].get("default").is_none(), "no secret is written");
    assert!(!skills.exists(), "nothing is written before it is accepted");

    let unknown = mine(&["--accept", "nothing-like-it"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("no proposal named `nothing-like-it`"));
    let accepted = mine(&["--accept", "search-product"]);
    assert_eq!(accepted.status.code(), Some(0), "{}", text(&accepted.stderr));
    let written = statewright_workflow::load_file(&skills.join("search-product.json")).unwrap().workflow;
    assert!(written.skill.is_some() && written.parameters.contains_key("product"));
    assert_eq!(std::fs::read_dir(&skills).unwrap().count(), 1, "only the accepted proposal");

    // A skill file that is a link whose file is gone is taken, and not written through.
    let gone = dir.path().join("elsewhere/login-username.json");
    std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
    std::os::unix::fs::symlink(&gone, skills.join("login-username.json")).unwrap();
    let refused = mine(&["--accept", "login-username"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("exists already; pass --force"), "{}", text(&refused.stderr));
    let refused = mine(&["--accept", "login-username", "--force"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("which does not exist: nothing was written"), "{}", text(&refused.stderr));
    assert!(!gone.exists(), "nothing made where the link leads");
    // Accepting both is all or nothing: whichever skill's file is in the way, it is found
    // before the other is written.
    for (in_the_way, other) in [("login-username", "search-product"), ("search-product", "login-username")] {
        for name in [in_the_way, other] {
            let _ = std::fs::remove_file(skills.join(format!("{name}.json")));
        }
        std::os::unix::fs::symlink(&gone, skills.join(format!("{in_the_way}.json"))).unwrap();
        let refused = mine(&["--accept-all", "--force"]);
        assert_eq!(refused.status.code(), Some(2));
        assert!(text(&refused.stderr).contains("which does not exist"), "{}", text(&refused.stderr));
        assert!(!skills.join(format!("{other}.json")).exists(), "{other} was not written");
    }
}

/// `skills mine` in a folder with no run store says so and leaves the folder as it was: it
/// made an empty statewright.db there (a mistyped --runs-dir became a store).
#[test]
fn mining_where_there_is_no_run_store_creates_none() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("no-runs-here");
    let out = statewright(&["skills", "mine", "20261125-195144", "20261125-195153"], &runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no run store at"), "{}", text(&out.stderr));
    assert!(!runs.exists(), "{} was created", runs.display());
}

/// A seed 003 skill named after a Windows device (`CON`, `nul`, `COM1`, `LPT1.`) was written
/// as `skills/con.json`, a file Windows cannot make (or opens the console for): a skills
/// folder shared with Windows through git broke there.
#[test]
fn a_skill_named_after_a_windows_device_gets_a_file_windows_can_hold() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let export = dir.path().join("export");
    for (i, name) in ["CON", "nul", "COM1", "LPT1.", "Sign in. "].iter().enumerate() {
        let folder = export.join(format!("00{i}-skill"));
        std::fs::create_dir_all(&folder).unwrap();
        let md = format!("---\nname: \"{name}\"\ndescription: A skill\n---\nA skill.\n");
        std::fs::write(folder.join("SKILL.md"), md).unwrap();
        std::fs::write(
            folder.join("actions.json"),
            r#"[{"action": "click", "element_label": "Go", "element_role": "button", "args": ["e1"]}]"#,
        )
        .unwrap();
    }
    let skills = dir.path().join("skills");
    let args = ["skills", "import", export.to_str().unwrap(), "--skills", skills.to_str().unwrap(), "--json"];
    let out = statewright(&args, &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut files: Vec<String> =
        std::fs::read_dir(&skills).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(files, ["com1_.json", "con_.json", "lpt1_.json", "nul_.json", "sign-in.json"]);
    for file in &files {
        assert!(!statewright_workflow::is_device_name(file.trim_end_matches(".json")), "{file}");
    }
    // Each skill is named as its file, so `use_skill` finds it; a device name is not a skill's.
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = report.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["con_", "nul_", "com1_", "lpt1_", "sign-in"]);
    let workflow = json!({"version": 1, "name": "w", "states": [{"name": "A",
        "checks": [{"type": "url", "value": "about:blank"}],
        "actions": [{"type": "use_skill", "skill": "con"}], "terminal": {"outcome": "success"}}]});
    let path = dir.path().join("w.json");
    std::fs::write(&path, workflow.to_string()).unwrap();
    let (code, stderr) = in_time(&["validate", path.to_str().unwrap()], &runs);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("`con` is not a skill name") && stderr.contains("Windows device name"), "{stderr}");
}

/// Skills that use each other in a loop (`a` uses `b`, `b` uses `a`) validated "ok", and a
/// run nested them eight deep, failing each level in turn, or waited for a person to review
/// the loop. Now `validate` and `run` refuse them where each `use_skill` is written, exit 2.
#[test]
fn skills_that_use_each_other_in_a_loop_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    for folder in ["workflows", "skills"] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
    }
    let state = |uses: &str| {
        json!([{"name": "S", "checks": [{"type": "url", "value": "about:blank"}],
                "actions": [{"type": "use_skill", "skill": uses}], "terminal": {"outcome": "success"}}])
    };
    let skill = |name: &str, uses: &str| json!({"version": 1, "name": name, "skill": {"pre": [], "post": []}, "states": state(uses)});
    for (name, uses) in [("a", "b"), ("b", "a"), ("self", "self")] {
        let text = serde_json::to_string_pretty(&skill(name, uses)).unwrap();
        std::fs::write(dir.path().join(format!("skills/{name}.json")), text).unwrap();
    }
    for (first, said) in [
        ("a", ["a.json", "skill `a` comes back to itself: a → b → a"]),
        ("self", ["self.json", "skill `self` comes back to itself: self → self"]),
    ] {
        let workflow = json!({"version": 1, "name": "w", "states": state(first)});
        let file = dir.path().join("workflows/w.json");
        std::fs::write(&file, serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
        for command in [vec!["validate", file.to_str().unwrap()], vec!["run", file.to_str().unwrap()]] {
            let (code, stderr) = in_time(&command, &runs);
            assert_eq!(code, Some(2), "{command:?}: {stderr}");
            for said in said {
                assert!(stderr.contains(said), "{command:?}: {stderr}");
            }
        }
    }
    assert!(!runs.join("statewright.db").exists() || states_is_empty(&runs), "no run was started");
}
