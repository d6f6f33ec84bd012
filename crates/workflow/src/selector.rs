//! STUB
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorError {
    pub offset: usize,
    pub message: String,
}
pub fn validate_css(_s: &str) -> Result<(), SelectorError> {
    Ok(())
}
pub fn validate_xpath(_s: &str) -> Result<(), SelectorError> {
    Ok(())
}
