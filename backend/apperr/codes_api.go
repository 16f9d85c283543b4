package apperr

// Codes of the OpenAI-compatible API (backend/apiserver, `playchat serve`,
// issue 23) and of the settings it adds. They live in their own file so the
// API's codes read together; the templates join the table at init.
const (
	// APIUnauthorized: a request to the API had no token, or a wrong one.
	APIUnauthorized Code = "api.unauthorized"
	// APIModelNotFound: the API was asked for model {model}, which is neither a "provider/model" id of a known provider nor a playchat/ alias of one.
	APIModelNotFound Code = "api.modelNotFound"
	// APIBodyTooLarge: a request body is over the API's limit of {maxMiB} MiB.
	APIBodyTooLarge Code = "api.bodyTooLarge"
	// APIBadJSON: a request body is not the JSON the endpoint takes; {detail} says why (English).
	APIBadJSON Code = "api.badJson"
	// APINoMessages: a chat completion request has no messages.
	APINoMessages Code = "api.noMessages"
	// APILastNotUser: a request to a playchat/ alias does not end with a user message (the turn answers it).
	APILastNotUser Code = "api.lastNotUser"
	// APIOnlyOneChoice: a request asked for {n} choices; the API answers with one.
	APIOnlyOneChoice Code = "api.onlyOneChoice"
	// APIBadKBDomain: x_playchat_kb_domain {domain} is not one folder name of the knowledge base's top level.
	APIBadKBDomain Code = "api.badKbDomain"
	// APISessionNotFound: x_playchat_session {id} is not a playchat session.
	APISessionNotFound Code = "api.sessionNotFound"
	// APINotFound: no endpoint {method} {path}.
	APINotFound Code = "api.notFound"
	// APIForbiddenOrigin: a request came from the web page {origin}; pages in a browser may not use the API.
	APIForbiddenOrigin Code = "api.forbiddenOrigin"
	// APIForbiddenHost: a request named the host {host}, which is not this computer (a DNS rebinding attempt, or a proxy: use the local-network mode).
	APIForbiddenHost Code = "api.forbiddenHost"
	// APIBadListen: {addr} is not an address the API can listen on (host:port, with an IP address as host); {detail} says why.
	APIBadListen Code = "api.badListen"
	// APINoToken: the API has no token to require (API_SERVER_TOKEN and PLAYCHAT_API_TOKEN are empty) and none could be made.
	APINoToken Code = "api.noToken"

	// ConfigReasonRequired: the value cannot be empty (a token that must always be required).
	ConfigReasonRequired Code = "config.reason.required"
	// ConfigReasonMinLength: the value must be at least {min} characters long.
	ConfigReasonMinLength Code = "config.reason.minLength"
	// ConfigReasonIP: the value must be an IP address, like 0.0.0.0 or 192.168.1.20.
	ConfigReasonIP Code = "config.reason.ip"
)

var apiTemplates = map[Code]string{
	APIUnauthorized:    "a valid API token is required: send it as Authorization: Bearer <token> (Settings, API_SERVER_TOKEN or PLAYCHAT_API_TOKEN)",
	APIModelNotFound:   "the model {model} does not exist: GET /v1/models lists the models this server offers",
	APIBodyTooLarge:    "the request body is over the limit of {maxMiB} MiB",
	APIBadJSON:         "the request body is not valid: {detail}",
	APINoMessages:      "the request has no messages",
	APILastNotUser:     "a playchat/ model answers the last message, which must be a user message",
	APIOnlyOneChoice:   "n is {n}: this server answers with one choice (n = 1)",
	APIBadKBDomain:     "x_playchat_kb_domain {domain} is not a top-level folder of the knowledge base",
	APISessionNotFound: "x_playchat_session {id} is not a playchat session",
	APINotFound:        "there is no endpoint {method} {path}",
	APIForbiddenOrigin: "requests from web pages ({origin}) are not accepted",
	APIForbiddenHost:   "the host {host} is not this computer: the API on 127.0.0.1 answers only requests addressed to it (use the local-network mode to serve other machines)",
	APIBadListen:       "{addr} is not an address to listen on: {detail}",
	APINoToken:         "the API has no token to require: set API_SERVER_TOKEN in Settings or PLAYCHAT_API_TOKEN in the environment",

	ConfigReasonRequired:  "must not be empty",
	ConfigReasonMinLength: "must be at least {min} characters long",
	ConfigReasonIP:        "must be an IP address, like 0.0.0.0 or 192.168.1.20",
}

func init() {
	for c, t := range apiTemplates {
		templates[c] = t
	}
}
