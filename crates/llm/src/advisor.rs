//! The LLM stage of the escalation chain: the stuck run's situation as a prompt (with a
//! set-of-mark screenshot), the model's answer parsed leniently and checked like a
//! person's, one more try when the answer cannot be used, and every call accounted.

use statewright_engine::review::BoxFuture;
use statewright_engine::{Advice, Advisor, EscalationRequest, ModelCall, Resolution};
use statewright_workflow::{Params, Workflow};

use crate::client::{ChatRequest, Client};
use crate::prompt::{Budget, system, user};
use crate::{answer, mark, parse};

/// Answers a model may give per escalation: the first, and one more after a refusal.
const ATTEMPTS: usize = 2;
/// The most of an answer kept on the record.
const MAX_ANSWER_CHARS: usize = 2000;

/// A test an answer must pass besides being usable (`Err`: why it does not).
type Holding = Box<dyn Fn(&Resolution) -> Result<(), String> + Send + Sync>;

pub struct LlmAdvisor {
    client: Client,
    workflow: Workflow,
    params: Params,
    budget: Budget,
    holding: Option<Holding>,
}

impl LlmAdvisor {
    pub fn new(client: Client, workflow: Workflow, params: Params) -> Self {
        Self { client, workflow, params, budget: Budget::default(), holding: None }
    }

    /// Holds every usable answer to `test` as well: one it fails is refused as an unusable
    /// answer is, the model told why and asked again (a state synthesised from a stored page
    /// whose checks do not hold on that page).
    pub fn holding_to(mut self, test: impl Fn(&Resolution) -> Result<(), String> + Send + Sync + 'static) -> Self {
        self.holding = Some(Box::new(test));
        self
    }

    /// The prompt for `request` (for inspection, benchmarks and tests).
    pub fn chat_request(&self, request: &EscalationRequest) -> ChatRequest {
        ChatRequest {
            system: system(),
            user: user(&self.workflow, &self.params, request, self.budget),
            images: mark::set_of_mark(request).into_iter().collect(),
            schema: Some(("next_step".to_owned(), answer::schema())),
        }
    }

    async fn consult(&self, request: EscalationRequest) -> Advice {
        let mut chat = self.chat_request(&request);
        let mut calls = Vec::new();
        let mut note = String::new();
        for _ in 0..ATTEMPTS {
            let prompt_chars = (chat.system.chars().count() + chat.user.chars().count()) as u64;
            let mut call =
                ModelCall { model: self.client.config().model.clone(), prompt_chars, ..ModelCall::default() };
            let reply = match self.client.chat(&chat).await {
                Ok(reply) => reply,
                Err(e) => {
                    // Unreachable, refused or too slow: asking again now would only wait longer.
                    note = format!("no answer: {e}");
                    call.error = Some(self.params.redact(&e.to_string()));
                    calls.push(call);
                    break;
                }
            };
            call.prompt_tokens = reply.prompt_tokens;
            call.completion_tokens = reply.completion_tokens;
            call.latency_ms = reply.latency_ms;
            call.cost = reply.cost;
            call.answer = cut(&self.params.redact(&reply.content), MAX_ANSWER_CHARS);
            let checked = parse::extract_object(&reply.content, "kind")
                .and_then(|object| answer::resolution(&object, &request, &self.workflow, &self.params))
                .and_then(|resolution| match &self.holding {
                    Some(test) => test(&resolution).map(|()| resolution),
                    None => Ok(resolution),
                });
            match checked {
                Ok(resolution) => {
                    call.accepted = true;
                    calls.push(call);
                    return Advice { resolution: Some(resolution), calls, note: String::new() };
                }
                Err(why) => {
                    note = format!("the model's answer could not be used: {why}");
                    call.error = Some(self.params.redact(&why));
                    calls.push(call);
                    chat.user.push_str(&format!(
                        "\n\nYour previous answer could not be used: {why}. Answer again with one JSON object."
                    ));
                }
            }
        }
        Advice { resolution: None, calls, note }
    }
}

impl Advisor for LlmAdvisor {
    fn advise(&self, request: EscalationRequest) -> BoxFuture<'_, Advice> {
        Box::pin(self.consult(request))
    }
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max { text.to_owned() } else { text.chars().take(max).collect::<String>() + "…" }
}
