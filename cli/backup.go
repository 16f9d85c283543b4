package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"playchat/backend/backup"
	"playchat/backend/config"
	"playchat/backend/core"
)

// PassphraseEnv names the environment variable a backup's passphrase may
// come from (else --passphrase-file, else a line read from stdin).
const PassphraseEnv = "PLAYCHAT_BACKUP_PASSPHRASE"

func backupCmd(ctx context.Context, args []string, env Env) error {
	return dispatch(ctx, "backup", args, env,
		sub{"create", backupCreate},
		sub{"restore", backupRestore},
		sub{"list", backupList},
	)
}

// passphrase reads the passphrase from the environment, a file or stdin.
func passphrase(env Env, file string) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", err
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	for _, kv := range env.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == PassphraseEnv && v != "" {
			return v, nil
		}
	}
	fmt.Fprintln(env.Stderr, "passphrase (one line on stdin):")
	r := env.Stdin
	if r == nil {
		r = os.Stdin
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && line == "" {
		return "", errors.New("no passphrase given (set " + PassphraseEnv + ", use --passphrase-file, or type it on stdin)")
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func backupCreate(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("backup create", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	out := fs.String("o", "", "write to FILE (or into DIR); default: the backup folder (BACKUP_DIR)")
	keys := fs.Bool("include-keys", false, "include API keys and tokens; the archive is then encrypted with a passphrase")
	passFile := fs.String("passphrase-file", "", "read the passphrase from FILE (else "+PassphraseEnv+", else stdin)")
	if pos, err := parseInterspersed(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		return usageError{"backup create takes no arguments (-o FILE names the archive)"}
	}
	var pass string
	if *keys {
		p, err := passphrase(env, *passFile)
		if err != nil {
			return err
		}
		pass = p
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	dest := *out
	if dest == "" {
		dest = c.Config().BackupDir
		if err := os.MkdirAll(dest, 0o700); err != nil {
			return err
		}
	}
	start := time.Now()
	p, m, err := backup.CreateFile(ctx, c.BackupSource(Version), dest, backup.CreateOptions{IncludeSecrets: *keys, Passphrase: pass})
	res := backup.Result{At: start.UTC(), OK: err == nil, Path: p}
	if err != nil {
		res.Error = err.Error()
	} else if st, serr := os.Stat(p); serr == nil {
		res.Size = st.Size()
	}
	backup.RecordBackup(c.DataDir, res)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "backed up %d chats, %d messages, %d knowledge base files in %s (%s)\n",
		m.Counts["sessions"], m.Counts["messages"], len(m.Files)-1-boolInt(hasEnv(m)), time.Since(start).Round(time.Millisecond), humanSize(res.Size))
	fmt.Fprintln(env.Stdout, p)
	return nil
}

func hasEnv(m backup.Manifest) bool {
	for _, f := range m.Files {
		if f.Path == "env/.env" {
			return true
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func backupRestore(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("backup restore", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	yes := fs.Bool("yes", false, "replace the current data without asking")
	passFile := fs.String("passphrase-file", "", "read the passphrase of an encrypted archive from FILE (else "+PassphraseEnv+", else stdin)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"backup restore needs exactly one FILE"}
	}
	dataDir, err := config.DataDir(env.Environ)
	if err != nil {
		return err
	}
	var pass string
	if enc, err := backup.IsEncrypted(pos[0]); err != nil {
		return err
	} else if enc {
		if pass, err = passphrase(env, *passFile); err != nil {
			return err
		}
	}
	// Everything is verified before anything of the data dir changes.
	m, err := backup.Stage(ctx, dataDir, pos[0], backup.OpenOptions{Passphrase: pass})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "the backup of %s (playchat %s) holds %d chats and %d messages%s\n",
		m.CreatedAt.Local().Format("2006-01-02 15:04"), m.AppVersion, m.Counts["sessions"], m.Counts["messages"],
		map[bool]string{true: ", with API keys", false: ", without API keys (the current ones are kept)"}[m.Secrets])
	if !*yes {
		fmt.Fprintf(env.Stderr, "replace the data in %s with it? The current data moves to %s. [y/N] ", dataDir, backup.SafetyDir)
		r := env.Stdin
		if r == nil {
			r = os.Stdin
		}
		line, _ := bufio.NewReader(r).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			backup.CancelStaged(dataDir)
			fmt.Fprintln(env.Stderr, "nothing was changed")
			return errReported
		}
	}
	// Opening the core exclusively applies the staged restore; with the
	// window open, it is applied when the window next starts.
	c, err := core.Open(ctx, core.Options{Environ: env.Environ, Logger: env.Logger, Exclusive: true})
	if errors.Is(err, core.ErrAlreadyRunning) {
		fmt.Fprintln(env.Stderr, "playchat is open: quit it and start it again to finish the restore (it is applied at the next start)")
		return nil
	}
	if err != nil {
		return err
	}
	defer c.Close()
	if backup.Staged(dataDir) != nil {
		return fmt.Errorf("the restore is staged but could not be applied (another playchat process has the database open?); it is applied at the next start of the window")
	}
	st := backup.ReadStatus(dataDir)
	if st.LastRestore != nil {
		fmt.Fprintf(env.Stderr, "restored; what it replaced is in %s\n", st.LastRestore.Safety)
	}
	return nil
}

func backupList(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("backup list", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print a JSON object: the archives and the last backup and restore")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	cfg := c.Config()
	targets := []backup.Target{backup.Folder{Dir: cfg.BackupDir}}
	if cfg.BackupWebDAVURL != "" {
		targets = append(targets, backup.WebDAV{URL: cfg.BackupWebDAVURL, User: cfg.BackupWebDAVUser, Password: cfg.BackupWebDAVPassword})
	}
	var all []backup.Entry
	var errs []error
	for _, t := range targets {
		es, err := t.List(ctx)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", t.Where(), err))
		}
		all = append(all, es...)
	}
	st := backup.ReadStatus(c.DataDir)
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if all == nil {
			all = []backup.Entry{}
		}
		if err := enc.Encode(map[string]any{"archives": all, "status": st}); err != nil {
			return err
		}
		return errors.Join(errs...)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSIZE\tWHERE")
	for _, e := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", oneLine(e.Name), humanSize(e.Size), oneLine(e.Where))
	}
	tw.Flush()
	if b := st.LastBackup; b != nil {
		state := "ok"
		if !b.OK {
			state = "FAILED: " + b.Error
		}
		fmt.Fprintf(env.Stdout, "\nlast backup: %s, %s\n", b.At.Local().Format("2006-01-02 15:04"), oneLine(state))
	}
	return errors.Join(errs...)
}
