package app

/*
#include <signal.h>
#include <string.h>

// WebKit installs signal handlers without SA_ONSTACK; after that any Go panic,
// even a recovered one, kills the process ("non-Go code set up signal handler
// without SA_ONSTACK flag"). Re-add the flag (BUILDING.md pitfall 5).
static void playchat_fix_signal(int sig) {
	struct sigaction st;
	if (sigaction(sig, NULL, &st) != 0) return;
	if (st.sa_handler == SIG_DFL || st.sa_handler == SIG_IGN) return;
	st.sa_flags |= SA_ONSTACK;
	sigaction(sig, &st, NULL);
}

static void playchat_fix_signals(void) {
	int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGCHLD, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2};
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) playchat_fix_signal(sigs[i]);
}
*/
import "C"

func fixSignalHandlers() { C.playchat_fix_signals() }
