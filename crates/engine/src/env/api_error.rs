//! [`ApiError`]: every error of the state API as JSON `{"error": <code>, "detail": <message>}`
//! with its HTTP status.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::EnvError;

/// A JSON error response.
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    detail: String,
}

impl ApiError {
    /// Builds an error with a status, a short code and a detail message.
    pub fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            detail: detail.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            axum::Json(json!({"error": self.code, "detail": self.detail})),
        )
            .into_response()
    }
}

impl From<EnvError> for ApiError {
    fn from(e: EnvError) -> ApiError {
        let (status, code) = match &e {
            EnvError::InvalidSid(_) => (StatusCode::BAD_REQUEST, "invalid_sid"),
            EnvError::UnknownAction(_) => (StatusCode::BAD_REQUEST, "unknown_action"),
            EnvError::StateNotObject(_) => (StatusCode::BAD_REQUEST, "state_not_object"),
            EnvError::InvalidFileName(_) => (StatusCode::BAD_REQUEST, "invalid_file_name"),
            EnvError::OverBudget { .. } => (StatusCode::INSUFFICIENT_STORAGE, "over_budget"),
            EnvError::Journal(_) => (StatusCode::SERVICE_UNAVAILABLE, "not_durable"),
            _ => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        };
        ApiError::new(status, code, e.to_string())
    }
}
