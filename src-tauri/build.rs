//! The configuration lives at the repository's top level (`tauri.conf.json`). The app's
//! commands are declared here so that each needs an explicit permission in
//! `capabilities/`: the window gets exactly these and nothing else.

const COMMANDS: &[&str] = &[
    "list_workflows",
    "open_workflow",
    "create_workflow",
    "duplicate_workflow",
    "rename_workflow",
    "save_workflow",
    "validate_workflow",
    "delete_workflow",
    "list_trash",
    "restore_workflow",
    "analyze_workflow",
    "plan_route",
    "start_run",
    "cancel_run",
    "list_runs",
    "open_run",
    "open_step_page",
    "list_reviews",
    "show_review",
    "preview_resolution",
    "resolve_review",
    "decide_proposal",
    "save_healed_locators",
    "model_settings",
    "save_model_settings",
    "synthesize_state",
    "record_workflow",
    "stop_recording",
    "start_agent_run",
    "start_batch",
    "cancel_batch",
    "judge_answers",
];

fn main() {
    let attributes = tauri_build::Attributes::new()
        .config_path("../tauri.conf.json")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    tauri_build::try_build(attributes).expect("tauri build script");
}
