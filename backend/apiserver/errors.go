package apiserver

import (
	"context"
	"errors"
	"net/http"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/llm"
	"playchat/backend/redact"
	"playchat/backend/store"
)

// errorBody is OpenAI's error JSON: {"error":{message,type,param,code}}. In a
// stream it is one SSE event; Error comes first, so clients that look for
// `data: {"error":` find it.
type errorBody struct {
	Error errorObject `json:"error"`
}

type errorObject struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// OpenAI's error types.
const (
	typeInvalidRequest = "invalid_request_error"
	typeAPI            = "api_error"
	typeRateLimit      = "rate_limit_error"
	typeAuth           = "authentication_error"
	typePermission     = "permission_error"
)

// failure is an error as the API answers it: an HTTP status and the error
// object.
type failure struct {
	status int
	body   errorObject
}

func strp(s string) *string { return &s }

// failureOf maps an error to its HTTP status and OpenAI error object. The
// message is the error's English text (credentials in URLs removed); code
// is OpenAI's where one exists (invalid_api_key, model_not_found,
// context_length_exceeded, …), else playchat's apperr code.
func failureOf(err error) failure {
	msg := redact.URLCredentials(err.Error())
	code := apperr.CodeOf(err)
	f := failure{status: http.StatusInternalServerError, body: errorObject{Message: msg, Type: typeAPI}}
	if code != "" {
		f.body.Code = strp(string(code))
	}
	set := func(status int, typ, param, code string) failure {
		f.status, f.body.Type = status, typ
		if param != "" {
			f.body.Param = strp(param)
		}
		if code != "" {
			f.body.Code = strp(code)
		}
		return f
	}
	var ae *llm.APIError
	switch {
	case code == apperr.APIUnauthorized:
		return set(http.StatusUnauthorized, typeAuth, "", "invalid_api_key")
	case code == apperr.APIModelNotFound, errors.Is(err, llm.ErrUnknownProvider), errors.Is(err, llm.ErrNoModel),
		errors.Is(err, llm.ErrMissingKey), errors.Is(err, chat.ErrNoModel):
		return set(http.StatusNotFound, typeInvalidRequest, "model", "model_not_found")
	case code == apperr.APIBodyTooLarge:
		return set(http.StatusRequestEntityTooLarge, typeInvalidRequest, "", "request_too_large")
	case code == apperr.APINotFound:
		return set(http.StatusNotFound, typeInvalidRequest, "", "unknown_url")
	case code == apperr.APIForbiddenOrigin, code == apperr.APIForbiddenHost:
		return set(http.StatusForbidden, typePermission, "", "")
	case code == apperr.APISessionNotFound:
		return set(http.StatusNotFound, typeInvalidRequest, "x_playchat_session", "")
	case code == apperr.APIBadKBDomain:
		return set(http.StatusBadRequest, typeInvalidRequest, "x_playchat_kb_domain", "")
	case code == apperr.ChatTooLongForModel, code == apperr.ChatAttachmentTooLong:
		return set(http.StatusBadRequest, typeInvalidRequest, "messages", "context_length_exceeded")
	case code == apperr.APINoMessages, code == apperr.APILastNotUser, code == apperr.ChatEmptyMessage,
		code == apperr.ChatMessageTooLong, code == apperr.ChatMessageNotUTF8:
		return set(http.StatusBadRequest, typeInvalidRequest, "messages", "")
	case code == apperr.APIOnlyOneChoice:
		return set(http.StatusBadRequest, typeInvalidRequest, "n", "")
	case code == apperr.APIBadJSON:
		return set(http.StatusBadRequest, typeInvalidRequest, "", "")
	case errors.Is(err, store.ErrNotFound):
		return set(http.StatusNotFound, typeInvalidRequest, "", "")
	case errors.Is(err, context.Canceled):
		return set(499, typeAPI, "", "cancelled") // the client went away; nobody reads it
	case errors.As(err, &ae):
		return upstreamFailure(f, ae)
	}
	return f
}

// upstreamFailure maps a provider's error answer: its status where the
// client can act on it, 502 where the fault is playchat's provider set-up
// (a key the provider refused must not read as the client's token being
// wrong).
func upstreamFailure(f failure, ae *llm.APIError) failure {
	switch s := ae.StatusCode; {
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		f.status, f.body.Type, f.body.Code = http.StatusBadGateway, typeAPI, strp("upstream_unauthorized")
	case s == http.StatusNotFound:
		f.status, f.body.Type, f.body.Param, f.body.Code = http.StatusNotFound, typeInvalidRequest, strp("model"), strp("model_not_found")
	case s == http.StatusTooManyRequests:
		f.status, f.body.Type, f.body.Code = http.StatusTooManyRequests, typeRateLimit, strp("rate_limit_exceeded")
	case s >= 400 && s < 500:
		f.status, f.body.Type = s, typeInvalidRequest
	default:
		f.status, f.body.Type = http.StatusBadGateway, typeAPI
	}
	return f
}
