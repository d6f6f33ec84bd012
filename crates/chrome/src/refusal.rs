//! Why an attach was refused before chromiumoxide was reached (the version query, the
//! guard's connection, its TLS): a certificate not trusted is told apart from the rest.

/// Why an endpoint was not attached to: its certificate is not trusted (a case of its own,
/// since the endpoint may well be a browser, and the remedy is the caller's), or anything else.
#[derive(Debug)]
pub(crate) enum Refusal {
    Untrusted(String),
    Other(String),
}

impl From<String> for Refusal {
    fn from(why: String) -> Self {
        Self::Other(why)
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Untrusted(why) | Self::Other(why) => f.write_str(why),
        }
    }
}

impl Refusal {
    /// The same refusal, its text passed through `edit` (to mask a URL in it).
    pub(crate) fn map(self, edit: impl FnOnce(&str) -> String) -> Self {
        match self {
            Self::Untrusted(why) => Self::Untrusted(edit(&why)),
            Self::Other(why) => Self::Other(edit(&why)),
        }
    }
}
