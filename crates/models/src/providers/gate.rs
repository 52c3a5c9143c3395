//! Wires the store's per-endpoint caps and the configured prices into every provider this process
//! builds: a worker on a shared store calls [`install`] (and [`install_prices`]) once before it
//! builds its agents; from then on each [`ChatProvider::chat`] of a provider made by
//! [`crate::providers::build_provider`] first takes a slot of its endpoint
//! ([`tuplewright_base::limits::EndpointSlots`]), waiting while the cap is reached, and gives it back when the call
//! (with its retries) ends, and takes a turn of the endpoint's rate cap ([`tuplewright_base::limits::rate`]) before
//! it starts. A call whose provider has no price of its own (`input_price_per_mtok`, …) is priced
//! at `[stats.prices]` for its model, so the cost recorded with its usage row — what `job budget
//! --usd` counts — is what `stats` reports. Without an installed gate, or for an uncapped
//! endpoint, calls go straight through.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::prices::PricesConfig;
use crate::providers::{ChatProvider, ChatRequest, ChatResponse, ProviderError};

use tuplewright_base::limits::EndpointSlots;

/// How long a call waits for a slot before it fails (as an infrastructure failure: retried by the
/// worker, never scored).
const PATIENCE: Duration = Duration::from_secs(600);

static GATE: OnceLock<Arc<EndpointSlots>> = OnceLock::new();
static PRICES: OnceLock<PricesConfig> = OnceLock::new();

/// Installs the slots every provider built from now on passes; false when one was installed.
pub fn install(slots: EndpointSlots) -> bool {
    GATE.set(Arc::new(slots)).is_ok()
}

/// Installs the price table calls without a provider price are costed at; false when one was.
pub fn install_prices(prices: PricesConfig) -> bool {
    PRICES.set(prices).is_ok()
}

/// The cost in USD of `input` + `output` tokens of `model` at `prices`.
pub fn priced(prices: &PricesConfig, model: &str, input: u64, output: u64) -> f64 {
    let p = prices.models.get(model).unwrap_or(&prices.default);
    input as f64 / 1e6 * p.input_per_mtok + output as f64 / 1e6 * p.output_per_mtok
}

/// `provider`, gated by the installed slots and prices if any.
pub fn wrap(provider: Arc<dyn ChatProvider>) -> Arc<dyn ChatProvider> {
    let slots = GATE.get().cloned();
    let prices = PRICES.get();
    if slots.is_none() && prices.is_none() {
        return provider;
    }
    Arc::new(Gated {
        inner: provider,
        slots,
        prices,
    })
}

struct Gated {
    inner: Arc<dyn ChatProvider>,
    slots: Option<Arc<EndpointSlots>>,
    prices: Option<&'static PricesConfig>,
}

impl Gated {
    fn call(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        let mut out = self.inner.chat(request)?;
        let u = &mut out.usage;
        if let Some(prices) = self.prices.filter(|_| u.cost_usd == 0.0) {
            let model = if u.model.is_empty() {
                self.inner.name()
            } else {
                u.model.clone()
            };
            u.cost_usd = priced(prices, &model, u.input_tokens, u.output_tokens);
        }
        Ok(out)
    }
}

impl ChatProvider for Gated {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        let Some(slots) = &self.slots else {
            return self.call(request);
        };
        let endpoint = self.inner.name();
        let failed = |e: tuplewright_base::store::StoreError| ProviderError::Exhausted {
            provider: endpoint.clone(),
            attempts: 0,
            last: format!("waiting for the store's cap on {endpoint}: {e}"),
        };
        let slot = slots.take(&endpoint, PATIENCE).map_err(failed)?;
        // Then a turn of the endpoint's rate cap (requests per minute), if it has one; a call
        // with its retries counts once.
        let out = match slots.turn(&endpoint, PATIENCE) {
            Ok(()) => self.call(request),
            Err(e) => Err(failed(e)),
        };
        if let Some(slot) = slot {
            if let Err(e) = slots.release(&slot) {
                // The slot lapses after its ttl; the answer is still good.
                tracing::warn!("giving back call slot {} of {endpoint}: {e}", slot.index);
            }
        }
        out
    }
}
