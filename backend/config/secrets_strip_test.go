package config

import (
	"strings"
	"testing"
)

func TestDotEnvWithoutSecretsDropsSecretStatementsOnly(t *testing.T) {
	in := "# models\nDEFAULT_MODEL=openai/gpt-4o-mini\nOPENAI_API_KEY=\"sk-abc\ncontinued\"\nexport TAVILY_API_KEY=tvly-1\nSEARXNG_URL=https://u:pw@searx.example\nLOG_LEVEL=debug\n"
	got := string(DotEnvWithoutSecrets([]byte(in)))
	for _, bad := range []string{"sk-abc", "continued", "tvly-1", "pw@"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q left in:\n%s", bad, got)
		}
	}
	for _, keep := range []string{"# models", "DEFAULT_MODEL=openai/gpt-4o-mini", "LOG_LEVEL=debug"} {
		if !strings.Contains(got, keep) {
			t.Errorf("%q lost:\n%s", keep, got)
		}
	}
}
