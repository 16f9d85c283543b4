package llm_test

import (
	"context"
	"testing"

	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
)

func f32(v float32) *float32 { return &v }

// A chat's temperature and top_p reach a model that takes them (0 included:
// go-openai would drop a plain zero), and never reach a reasoning model.
func TestSamplingParametersAreSentOnlyToModelsThatTakeThem(t *testing.T) {
	cases := []struct {
		model    string
		wantTemp bool
	}{
		{"openai/gpt-4o-mini", true},
		{"openai/o1-preview", false},
		{"openai/o3-mini", false},
		{"openai/o4-mini", false},
		{"openai/gpt-5-mini", false},
	}
	for _, c := range cases {
		t.Run(c.model, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(llmtest.Response{Reply: "ok"})
			req := userRequest("hi")
			req.Model, req.Temperature, req.TopP = c.model, f32(0), f32(0.9)
			if _, _, err := h.stream(t, context.Background(), req); err != nil {
				t.Fatal(err)
			}
			rec := h.srv.Requests()[0]
			if got := rec.Temperature != nil; got != c.wantTemp {
				t.Fatalf("temperature sent = %v (%v), want %v", got, rec.Temperature, c.wantTemp)
			}
			if got := rec.TopP != nil; got != c.wantTemp {
				t.Fatalf("top_p sent = %v, want %v", got, c.wantTemp)
			}
			if c.wantTemp && (*rec.Temperature > 1e-6 || *rec.TopP < 0.89) {
				t.Fatalf("sent temperature %v top_p %v, want 0 and 0.9", *rec.Temperature, *rec.TopP)
			}
			if got := h.client.ParamSupport(c.model)[llm.ParamTemperature]; c.wantTemp == (got != "") {
				t.Fatalf("ParamSupport(temperature) = %q", got)
			}
		})
	}
}

// A provider's refusal of a parameter is mapped once: the request goes
// again without it, and later requests for that model leave it out.
func TestParameterRefusedByProviderIsRememberedPerModel(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.","param":"temperature","code":"unsupported_value"}}`},
		llmtest.Response{Reply: "first"},
		llmtest.Response{Reply: "second"},
	)
	req := userRequest("hi")
	req.Temperature = f32(0.2)
	res, _, err := h.stream(t, context.Background(), req)
	if err != nil || res.Text != "first" {
		t.Fatalf("refused then retried: %q %v", res.Text, err)
	}
	if _, _, err := h.stream(t, context.Background(), req); err != nil {
		t.Fatal(err)
	}
	recs := h.srv.Requests()
	if len(recs) != 3 || recs[0].Temperature == nil || recs[1].Temperature != nil || recs[2].Temperature != nil {
		t.Fatalf("temperatures sent: %d requests, want sent, then absent twice", len(recs))
	}
	if got := h.client.ParamSupport(testModel)[llm.ParamTemperature]; got != llm.KnownByProvider {
		t.Fatalf("ParamSupport = %q, want %q", got, llm.KnownByProvider)
	}
	// Another model is not affected.
	h.srv.Enqueue(llmtest.Response{Reply: "x"})
	other := req
	other.Model = "openai/gpt-other"
	if _, _, err := h.stream(t, context.Background(), other); err != nil {
		t.Fatal(err)
	}
	if h.srv.Requests()[3].Temperature == nil {
		t.Fatal("the refusal of one model dropped temperature for another")
	}
}

// An unrelated 400 is not retried.
func TestOtherBadRequestIsNotRetriedWithoutParameters(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"messages: too many"}}`})
	req := userRequest("hi")
	req.Temperature = f32(0.5)
	if _, _, err := h.stream(t, context.Background(), req); err == nil {
		t.Fatal("a 400 succeeded")
	}
	if n := len(h.srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}
