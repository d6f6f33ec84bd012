//! The app on Tauri's mock runtime with its real context (the main window's capability
//! applies), over folders in a temporary home, and calls into it as the window makes them.

use std::path::Path;

use serde_json::Value;
use statewright_app::{AppState, builder};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder};
use tauri::webview::InvokeRequest;

pub type Window = tauri::WebviewWindow<MockRuntime>;

/// The app over `workflows/` and `runs/` in `home` (both made), and its main window.
pub fn app(home: &Path) -> (tauri::App<MockRuntime>, Window) {
    let workflows = home.join("workflows");
    std::fs::create_dir_all(&workflows).expect("workflows dir");
    std::fs::create_dir_all(home.join("runs")).expect("runs dir");
    let state = AppState::new(workflows, home.join("runs"));
    let app =
        builder(mock_builder(), state).build(tauri::generate_context!("../tauri.conf.json")).expect("the app builds");
    let window = tauri::WebviewWindowBuilder::new(&app, "main", Default::default()).build().expect("a window");
    (app, window)
}

/// A command called from the app's own page.
pub fn invoke(webview: &Window, cmd: &str, args: Value) -> Result<Value, Value> {
    invoke_from(webview, "tauri://localhost", cmd, args)
}

/// A command called from a page at `url`.
pub fn invoke_from(webview: &Window, url: &str, cmd: &str, args: Value) -> Result<Value, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: url.parse().expect("url"),
        body: InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_owned(),
    };
    get_ipc_response(webview, request).map(|body| body.deserialize::<Value>().expect("a JSON answer"))
}
