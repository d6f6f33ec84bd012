//! STUB until the real parser lands.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub name: String,
    pub name_span: Span,
    pub args: Vec<Arg>,
}
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    pub keyword: Option<String>,
    pub value: Literal,
    pub span: Span,
    pub value_span: Span,
}
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    None,
    Tuple(Vec<Literal>),
    List(Vec<Literal>),
}
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallError {
    pub offset: usize,
    pub message: String,
}
pub fn parse_call(_src: &str) -> Result<Call, CallError> {
    Err(CallError { offset: 0, message: "stub".into() })
}
impl Literal {
    pub fn type_name(&self) -> &'static str {
        "x"
    }
}
