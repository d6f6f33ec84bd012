//! Where the model is: a settings file in the user's config folder, then the environment
//! (`STATEWRIGHT_LLM_URL`, `STATEWRIGHT_LLM_MODEL`, `STATEWRIGHT_LLM_API_KEY` or
//! `OPENAI_API_KEY`, `STATEWRIGHT_LLM_CA_CERT`), then command-line flags, each overriding the one before. Without a
//! URL there is no model, and everything works without one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the settings file (`llm.json` in the config folder) holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// The OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1` (Ollama) or
    /// `https://api.openai.com/v1`.
    pub url: Option<String>,
    pub model: Option<String>,
    /// Sent as `Authorization: Bearer …`; never shown, logged or stored with a run.
    pub api_key: Option<String>,
    /// Seconds one call may take, the model's thinking included (default 60).
    pub timeout: Option<f64>,
    /// Attempts after the first on 429, 5xx and dropped connections (default 2).
    pub retries: Option<u32>,
    /// US dollars per million prompt tokens, for the cost figures (default 0).
    pub input_price: Option<f64>,
    /// US dollars per million completion tokens.
    pub output_price: Option<f64>,
    /// Send images (set-of-mark screenshots); off for text-only models (default on).
    pub vision: Option<bool>,
    /// A PEM file of certificate authorities trusted besides the system's, for an https
    /// endpoint behind a private CA (a company proxy, a self-signed server).
    pub ca_cert: Option<PathBuf>,
}

/// A resolved configuration: a model to call.
#[derive(Clone, PartialEq)]
pub struct LlmConfig {
    /// Base URL without a trailing slash; `/chat/completions` is appended.
    pub url: String,
    pub model: String,
    pub api_key: Option<String>,
    pub timeout: Duration,
    pub retries: u32,
    pub input_price: f64,
    pub output_price: f64,
    pub vision: bool,
    /// Extra trusted authorities (PEM), checked to hold at least one certificate.
    pub ca_cert: Option<PathBuf>,
}

// The key must not reach a log line through `{:?}`.
impl std::fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmConfig")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "••••••"))
            .field("timeout", &self.timeout)
            .field("retries", &self.retries)
            .field("ca_cert", &self.ca_cert)
            .finish_non_exhaustive()
    }
}

/// Command-line overrides (`--llm-url`, `--llm-model`).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub url: Option<String>,
    pub model: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: {message}")]
    File { path: String, message: String },
    #[error("the LLM endpoint {url} is not usable: {reason}")]
    Url { url: String, reason: String },
    #[error("an LLM URL is set ({url}) but no model: set STATEWRIGHT_LLM_MODEL, --llm-model or `model` in {file}")]
    NoModel { url: String, file: String },
    #[error("the certificate authority file {path} is not usable: {reason}")]
    CaCert { path: String, reason: String },
    #[error("the LLM setting `{name}` is not usable: {reason}")]
    Setting { name: &'static str, reason: String },
}

/// The settings file: `$STATEWRIGHT_CONFIG_DIR/llm.json`, else `$XDG_CONFIG_HOME/statewright/`,
/// else `~/.config/statewright/`.
pub fn settings_path() -> PathBuf {
    let dir = std::env::var_os("STATEWRIGHT_CONFIG_DIR").map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".config")))
            .unwrap_or_else(|| PathBuf::from("."))
            .join("statewright")
    });
    dir.join("llm.json")
}

pub fn read_settings(path: &Path) -> Result<Settings, ConfigError> {
    // Read as every input file is: a pipe or a device there is refused, not waited on.
    let text = match statewright_workflow::read_input_text(path, "settings file") {
        Ok(text) => text,
        Err(e) if e.missing => return Ok(Settings::default()),
        Err(e) => return Err(ConfigError::File { path: path.display().to_string(), message: e.message }),
    };
    serde_json::from_str(&text).map_err(|e| ConfigError::File {
        path: path.display().to_string(),
        message: format!("line {}, column {}: {}", e.line(), e.column(), statewright_workflow::json_problem(&text, &e)),
    })
}

/// Writes the settings file (the app's settings page), creating its folder; readable by
/// the user only, since it may hold a key.
pub fn write_settings(path: &Path, settings: &Settings) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = serde_json::to_string_pretty(settings).map_err(std::io::Error::other)?;
    let tmp = path.with_extension("json.tmp");
    let mut file = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?;
    std::io::Write::write_all(&mut file, text.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(tmp, path)
}

impl LlmConfig {
    /// The configuration from file, environment and flags; `None` when no URL is set.
    pub fn resolve(overrides: &Overrides) -> Result<Option<Self>, ConfigError> {
        let path = settings_path();
        let file = read_settings(&path)?;
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let url = overrides.url.clone().or_else(|| env("STATEWRIGHT_LLM_URL")).or(file.url.clone());
        let Some(url) = url else { return Ok(None) };
        // An empty flag is the person's to fix there, not the file's (an empty variable is unset).
        if overrides.model.as_deref().is_some_and(is_blank) {
            return Err(ConfigError::Setting { name: "--llm-model", reason: NO_MODEL_NAMED.into() });
        }
        let model = overrides.model.clone().or_else(|| env("STATEWRIGHT_LLM_MODEL")).or(file.model.clone());
        let Some(model) = model else {
            return Err(ConfigError::NoModel { url, file: path.display().to_string() });
        };
        let api_key = env("STATEWRIGHT_LLM_API_KEY").or_else(|| env("OPENAI_API_KEY")).or(file.api_key.clone());
        let ca_cert = env("STATEWRIGHT_LLM_CA_CERT").map(PathBuf::from).or(file.ca_cert.clone());
        // A bad setting is the file's (the only place settings other than the URL are given).
        Self::new(&url, &model, api_key, &Settings { ca_cert, ..file }).map(Some).map_err(|e| match e {
            ConfigError::Setting { .. } => {
                ConfigError::File { path: path.display().to_string(), message: e.to_string() }
            }
            other => other,
        })
    }

    pub fn new(url: &str, model: &str, api_key: Option<String>, settings: &Settings) -> Result<Self, ConfigError> {
        let url = check_url(url)?;
        // Sent as it is, an empty name gets the server's own error (or its default model)
        // at the first call, deep in a run.
        if is_blank(model) {
            return Err(ConfigError::Setting { name: "model", reason: NO_MODEL_NAMED.into() });
        }
        let timeout = match settings.timeout {
            None => DEFAULT_TIMEOUT,
            // No time at all, or less than none, would fail every call before it is sent.
            Some(seconds) => Duration::try_from_secs_f64(seconds).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
                ConfigError::Setting {
                    name: "timeout",
                    reason: format!("{seconds} is not a number of seconds above 0 (the default is 60)"),
                }
            })?,
        };
        if let Some(path) = &settings.ca_cert {
            authorities(path)?;
        }
        Ok(Self {
            url,
            model: model.to_owned(),
            api_key,
            timeout,
            retries: settings.retries.unwrap_or(2).min(10),
            input_price: settings.input_price.unwrap_or(0.0).max(0.0),
            output_price: settings.output_price.unwrap_or(0.0).max(0.0),
            vision: settings.vision.unwrap_or(true),
            ca_cert: settings.ca_cert.clone(),
        })
    }

    /// `host:port/…` without credentials, for messages.
    pub fn endpoint(&self) -> &str {
        &self.url
    }
}

pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

const NO_MODEL_NAMED: &str =
    "it names no model (it is empty or only spaces); give the model's name, e.g. `gpt-4o-mini`";

fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

/// The certificates of a PEM file of authorities; an unreadable file, or one with none in
/// it, is a configuration error (caught before a run, not at its first model call).
pub fn authorities(path: &Path) -> Result<Vec<reqwest::Certificate>, ConfigError> {
    let bad = |reason: String| ConfigError::CaCert { path: path.display().to_string(), reason };
    let pem = statewright_workflow::read_input_bytes(path, "certificate file", statewright_workflow::MAX_INPUT_BYTES)
        .map_err(|e| bad(e.message))?;
    let certs = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| bad(e.to_string()))?;
    if certs.is_empty() {
        return Err(bad("it holds no PEM certificate (-----BEGIN CERTIFICATE-----)".into()));
    }
    Ok(certs)
}

/// A usable base URL: http or https, a host, a valid port, no credentials, query or fragment
/// (`/chat/completions` is appended to it); the trailing slash and a pasted
/// `/chat/completions` are dropped. Read as the HTTP client will read it, so a URL that
/// passes here is one it can call. A message never repeats credentials found in it.
fn check_url(url: &str) -> Result<String, ConfigError> {
    let bad = |reason: &str| ConfigError::Url { url: without_credentials(url), reason: reason.to_owned() };
    let trimmed = url.trim().trim_end_matches('/');
    let trimmed = trimmed.strip_suffix("/chat/completions").unwrap_or(trimmed);
    let Some(rest) = trimmed.strip_prefix("http://").or_else(|| trimmed.strip_prefix("https://")) else {
        return Err(bad("expected http(s)://HOST[:PORT]/… (the base URL, e.g. http://127.0.0.1:11434/v1)"));
    };
    if rest.split(['/', '?', '#']).next().unwrap_or_default().is_empty() {
        return Err(bad("it names no host"));
    }
    let parsed = reqwest::Url::parse(trimmed).map_err(|e| bad(&e.to_string()))?;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad("credentials do not belong in the URL: use STATEWRIGHT_LLM_API_KEY"));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(bad("a base URL has no ?query or #fragment (/chat/completions is appended to it); a key goes in \
             STATEWRIGHT_LLM_API_KEY"));
    }
    Ok(trimmed.to_owned())
}

/// `url` with anything between its scheme and an `@` masked: what a message may show.
fn without_credentials(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://••••••{}", &rest[at..]),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked_and_normalised() {
        assert_eq!(check_url("http://127.0.0.1:11434/v1/").unwrap(), "http://127.0.0.1:11434/v1");
        assert_eq!(check_url("http://h:8080/v1/chat/completions").unwrap(), "http://h:8080/v1");
        assert_eq!(check_url("https://api.openai.com/v1").unwrap(), "https://api.openai.com/v1");
        for bad in [
            "127.0.0.1:11434",
            "ftp://x",
            "http://",
            "https://",
            "https://user:pw@h/v1",
            "http://127.0.0.1:99999/v1",
            "http://h/v1?key=sk-1",
            "http://h/v1#x",
            "http://h:port/v1",
        ] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
        // Credentials in a URL are never repeated, wherever the URL breaks.
        for url in ["http://user:sk-secret-1@h/v1", "http://sk-secret-1@h:99999/v1", "http://a:sk-secret-1@/v1"] {
            let e = check_url(url).unwrap_err().to_string();
            assert!(!e.contains("sk-secret") && e.contains("••••••"), "{url}: {e}");
        }
        let e = check_url("http://h/v1?key=1").unwrap_err().to_string();
        assert!(e.contains("STATEWRIGHT_LLM_API_KEY"), "{e}");
    }

    #[test]
    fn a_timeout_of_no_time_is_refused() {
        for seconds in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            let settings = Settings { timeout: Some(seconds), ..Settings::default() };
            let e = LlmConfig::new("http://h/v1", "m", None, &settings).unwrap_err().to_string();
            assert!(e.contains("`timeout`") && e.contains("above 0"), "{seconds}: {e}");
        }
        let settings = Settings { timeout: Some(0.5), ..Settings::default() };
        assert_eq!(LlmConfig::new("http://h/v1", "m", None, &settings).unwrap().timeout, Duration::from_millis(500));
    }

    #[test]
    fn a_model_of_no_name_is_refused() {
        for model in ["", "   ", "\t"] {
            let e = LlmConfig::new("http://h/v1", model, None, &Settings::default()).unwrap_err().to_string();
            assert!(e.contains("`model`") && e.contains("names no model"), "{model:?}: {e}");
        }
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let c = LlmConfig::new("http://h/v1", "m", Some("sk-secret-123".into()), &Settings::default()).unwrap();
        assert!(!format!("{c:?}").contains("sk-secret"));
    }

    #[test]
    fn a_malformed_settings_file_names_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("llm.json");
        std::fs::write(&path, "{\n  \"url\": \"http://h/v1\",\n  \"modle\": \"x\"\n}").unwrap();
        let e = read_settings(&path).unwrap_err().to_string();
        assert!(e.contains("llm.json") && e.contains("line 3") && e.contains("modle"), "{e}");
        write_settings(&path, &Settings { url: Some("http://h/v1".into()), ..Settings::default() }).unwrap();
        assert_eq!(read_settings(&path).unwrap().url.as_deref(), Some("http://h/v1"));
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }
}
