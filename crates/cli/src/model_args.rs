//! The model flags of every command that may ask one, and where its settings come from
//! otherwise ($STATEWRIGHT_LLM_URL and $STATEWRIGHT_LLM_MODEL, then the settings file).

use clap::Args;
use statewright_llm::{LlmConfig, Overrides};

#[derive(Args, Clone)]
pub struct ModelArgs {
    /// The OpenAI-compatible endpoint to ask (default: $STATEWRIGHT_LLM_URL, else the
    /// settings file).
    #[arg(long, value_name = "URL")]
    pub llm_url: Option<String>,
    /// The model to ask (default: $STATEWRIGHT_LLM_MODEL, else the settings file).
    #[arg(long, value_name = "NAME")]
    pub llm_model: Option<String>,
}

impl ModelArgs {
    /// The model configured, if any; a malformed setting is an error.
    pub fn config(&self) -> Result<Option<LlmConfig>, String> {
        LlmConfig::resolve(&Overrides { url: self.llm_url.clone(), model: self.llm_model.clone() })
            .map_err(|e| e.to_string())
    }

    /// The model `what` needs ("judging", "an agent run").
    pub fn required(&self, what: &str) -> Result<LlmConfig, String> {
        self.config()?.ok_or_else(|| format!("{what} needs a model: give --llm-url and --llm-model (see the README)"))
    }
}
