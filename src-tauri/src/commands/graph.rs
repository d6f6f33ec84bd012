//! The graph of the workflow being edited, with the evidence of its stored runs: findings
//! and edges for the canvas, and the route *Go here* lights before it runs.

use serde_json::Value;
use statewright_graph::{GraphReport, Route};
use statewright_runner::graph::{check_goal, evidence, report, route_from_start};
use statewright_workflow::Workflow;
use tauri::State;

use super::blocking;
use crate::AppState;
use crate::error::{CommandError, CommandResult, ErrorCode};

fn typed(workflow: Value) -> CommandResult<Workflow> {
    serde_json::from_value(workflow).map_err(|e| CommandError::new(ErrorCode::InvalidWorkflow, e.to_string()))
}

#[tauri::command(rename_all = "snake_case")]
pub async fn analyze_workflow(state: State<'_, AppState>, workflow: Value) -> CommandResult<GraphReport> {
    let workflow = typed(workflow)?;
    let store = state.store();
    blocking(move || {
        let runs = evidence(&*store.get()?, &workflow.name);
        Ok(report(&workflow, &runs))
    })
    .await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn plan_route(state: State<'_, AppState>, workflow: Value, to: String) -> CommandResult<Route> {
    let workflow = typed(workflow)?;
    check_goal(&workflow, &to).map_err(|e| CommandError::new(ErrorCode::InvalidWorkflow, e))?;
    let store = state.store();
    blocking(move || {
        let runs = evidence(&*store.get()?, &workflow.name);
        route_from_start(&workflow, &runs, &to)
            .ok_or_else(|| CommandError::new(ErrorCode::NoRoute, format!("no known way from the start to `{to}`")))
    })
    .await
}
