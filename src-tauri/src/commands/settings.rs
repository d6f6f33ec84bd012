//! The model settings page: the settings file the CLI reads too (`llm.json` in the user's
//! config folder). The API key is written, never read back to the window.

use statewright_llm::config::{read_settings, write_settings};
use statewright_llm::{LlmConfig, Settings, settings_path};
use statewright_workbench::ipc::{ModelSettings, ModelSettingsChange};

use super::blocking;
use crate::error::{CommandError, CommandResult, ErrorCode};

const ENV: &[&str] = &[
    "STATEWRIGHT_LLM_URL",
    "STATEWRIGHT_LLM_MODEL",
    "STATEWRIGHT_LLM_API_KEY",
    "OPENAI_API_KEY",
    "STATEWRIGHT_LLM_CA_CERT",
];

fn invalid(e: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::InvalidSettings, e.to_string())
}

fn view(settings: &Settings) -> ModelSettings {
    ModelSettings {
        path: settings_path().display().to_string(),
        url: settings.url.clone(),
        model: settings.model.clone(),
        timeout: settings.timeout,
        retries: settings.retries,
        input_price: settings.input_price,
        output_price: settings.output_price,
        vision: settings.vision,
        ca_cert: settings.ca_cert.as_ref().map(|p| p.display().to_string()),
        has_api_key: settings.api_key.is_some(),
        overridden_by_env: ENV.iter().filter(|v| std::env::var_os(v).is_some()).map(|v| (*v).to_owned()).collect(),
    }
}

#[tauri::command(rename_all = "snake_case")]
pub async fn model_settings() -> CommandResult<ModelSettings> {
    blocking(|| Ok(view(&read_settings(&settings_path()).map_err(invalid)?))).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn save_model_settings(change: ModelSettingsChange) -> CommandResult<ModelSettings> {
    blocking(move || {
        let path = settings_path();
        let mut settings = read_settings(&path).map_err(invalid)?;
        let text = |v: Option<String>| v.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
        settings.url = text(change.url);
        settings.model = text(change.model);
        settings.timeout = change.timeout;
        settings.retries = change.retries;
        settings.input_price = change.input_price;
        settings.output_price = change.output_price;
        settings.vision = change.vision;
        settings.ca_cert = text(change.ca_cert).map(Into::into);
        match change.api_key {
            Some(key) if key.is_empty() => settings.api_key = None,
            Some(key) => settings.api_key = Some(key),
            None => {}
        }
        // Refuse what a run would refuse, before it is written.
        match (&settings.url, &settings.model) {
            (Some(url), Some(model)) => {
                LlmConfig::new(url, model, None, &settings).map_err(invalid)?;
            }
            (Some(_), None) => return Err(invalid("a model name is needed with a URL")),
            _ => {}
        }
        write_settings(&path, &settings).map_err(|e| invalid(format!("cannot write {}: {e}", path.display())))?;
        Ok(view(&settings))
    })
    .await
}
