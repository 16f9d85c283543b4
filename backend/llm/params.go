package llm

import (
	"errors"
	"math"
	"net/http"
	"regexp"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// Sampling parameters a Request may carry, as the request body names them.
const (
	ParamTemperature = "temperature"
	ParamTopP        = "top_p"
)

// How playchat knows that a model does not accept a parameter
// (ParamSupport's values).
const (
	// KnownByTable: the model table below says so; the parameter is never
	// sent to the model.
	KnownByTable = "table"
	// KnownByProvider: the provider refused a request with the parameter
	// (HTTP 400 naming it); the request was sent again without it, and the
	// parameter is left out for that model for the life of the process.
	KnownByProvider = "provider"
)

// The model table: parameters a model does not accept, by the model's
// name as its provider knows it (a vendor prefix such as OpenRouter's
// "openai/" is ignored).
//
//   - OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 and its variants)
//     accept only the default temperature and top_p (1): any other value
//     is refused with 400 "Unsupported value: 'temperature' does not support
//     0.7 with this model", and go-openai refuses such a request itself
//     before sending it (ErrReasoningModelLimitationsOther). Both are left
//     out; max_tokens is sent as max_completion_tokens (buildChatRequest).
var reasoningPrefixes = []string{"o1", "o3", "o4", "gpt-5"}

// tableUnsupported returns the parameters the model table says model (on
// provider) does not accept.
func tableUnsupported(provider, model string) []string {
	name := model
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:] // "openai/o3-mini" on OpenRouter
	}
	name = strings.ToLower(name)
	for _, p := range reasoningPrefixes {
		if strings.HasPrefix(name, p) {
			return []string{ParamTemperature, ParamTopP}
		}
	}
	return nil
}

// applySampling sets req's temperature and top_p on cr, leaving out what
// the model table or drop (what providers refused) names, and fitting the
// providers' quirks:
//
//   - go-openai omits a zero temperature or top_p (omitempty), so 0 is sent
//     as the smallest float32 above it (go-openai's documented way);
//   - Anthropic accepts a temperature of 0–1 only (OpenAI 0–2): it is
//     capped at 1; and Anthropic's newer models refuse temperature and
//     top_p together ("cannot both be specified"): top_p is then left out.
func applySampling(ep Endpoint, req Request, cr *openai.ChatCompletionRequest, drop map[string]bool) {
	off := map[string]bool{}
	for _, p := range tableUnsupported(ep.Provider, ep.Model) {
		off[p] = true
	}
	for p := range drop {
		off[p] = true
	}
	nonZero := func(v float32) float32 {
		if v <= 0 {
			return math.SmallestNonzeroFloat32
		}
		return v
	}
	if req.Temperature != nil && !off[ParamTemperature] {
		v := *req.Temperature
		if ep.Provider == ProviderAnthropic && v > 1 {
			v = 1
		}
		cr.Temperature = nonZero(v)
	}
	if req.TopP != nil && !off[ParamTopP] && !(ep.Provider == ProviderAnthropic && cr.Temperature != 0) {
		cr.TopP = nonZero(*req.TopP)
	}
}

// paramRefusedRe matches a provider's words for a parameter it does not
// take: OpenAI's "Unsupported value: 'temperature' does not support …" and
// "Unsupported parameter: 'top_p' is not supported with this model",
// Anthropic's "temperature and top_p cannot both be specified", and the
// "unrecognized/unknown/extra" wording of stricter OpenAI-compatible
// servers.
var paramRefusedRe = regexp.MustCompile(`(?i)(unsupported|not supported|does not support|only the default|cannot both|not allowed|unrecogni[sz]ed|unknown (field|parameter|argument)|extra (inputs|fields))`)

// refusedParams returns the parameters set on cr that err (a provider's
// 400) refuses, or nil when err is no such refusal. For "cannot both be
// specified" only top_p is named, so temperature stays.
func refusedParams(err error, cr openai.ChatCompletionRequest) []string {
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusBadRequest || !paramRefusedRe.MatchString(ae.Message) {
		return nil
	}
	msg := strings.ToLower(ae.Message)
	var out []string
	if cr.TopP != 0 && (strings.Contains(msg, "top_p") || strings.Contains(msg, "top-p")) {
		out = append(out, ParamTopP)
	}
	if cr.Temperature != 0 && strings.Contains(msg, "temperature") && !strings.Contains(msg, "both") {
		out = append(out, ParamTemperature)
	}
	return out
}

// stripParams clears ps on cr.
func stripParams(cr *openai.ChatCompletionRequest, ps []string) {
	for _, p := range ps {
		switch p {
		case ParamTemperature:
			cr.Temperature = 0
		case ParamTopP:
			cr.TopP = 0
		}
	}
}

// refused returns what providers refused for model ("provider/model").
func (c *Client) refused(model string) map[string]bool {
	c.paramMu.Lock()
	defer c.paramMu.Unlock()
	out := map[string]bool{}
	for p := range c.refusedParams[model] {
		out[p] = true
	}
	return out
}

// markRefused remembers that model's provider refused ps.
func (c *Client) markRefused(model string, ps []string) {
	c.paramMu.Lock()
	defer c.paramMu.Unlock()
	if c.refusedParams == nil {
		c.refusedParams = map[string]map[string]bool{}
	}
	if c.refusedParams[model] == nil {
		c.refusedParams[model] = map[string]bool{}
	}
	for _, p := range ps {
		c.refusedParams[model][p] = true
	}
}

// ParamSupport returns the sampling parameters model ("provider/model")
// does not accept, each with how that is known (KnownByTable or
// KnownByProvider); an empty map when it takes them all or does not
// resolve.
func (c *Client) ParamSupport(model string) map[string]string {
	out := map[string]string{}
	for p := range c.refused(model) {
		out[p] = KnownByProvider
	}
	if ep, err := ResolveModel(model, c.Providers()); err == nil {
		for _, p := range tableUnsupported(ep.Provider, ep.Model) {
			out[p] = KnownByTable
		}
	}
	return out
}

// retryWithoutRefused is called after an attempt failed before its first
// byte: when err is a refusal of parameters cr carries, they are
// remembered for model, cleared on cr, and it returns true (send again).
func (c *Client) retryWithoutRefused(model string, err error, cr *openai.ChatCompletionRequest) bool {
	ps := refusedParams(err, *cr)
	if len(ps) == 0 {
		return false
	}
	c.log.Info("llm: provider refused sampling parameters; sending again without them", "model", model, "params", ps)
	c.markRefused(model, ps)
	stripParams(cr, ps)
	return true
}
