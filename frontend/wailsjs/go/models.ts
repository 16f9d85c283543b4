export namespace apiserver {
	
	export class RunnerStatus {
	    running: boolean;
	    url: string;
	    lan: boolean;
	    err: string;
	
	    static createFrom(source: any = {}) {
	        return new RunnerStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.running = source["running"];
	        this.url = source["url"];
	        this.lan = source["lan"];
	        this.err = source["err"];
	    }
	}

}

export namespace app {
	
	export class AboutInfo {
	    version: string;
	    goVersion: string;
	    wailsVersion: string;
	    platform: string;
	    dataDir: string;
	    logFile: string;
	    changelog: string;
	
	    static createFrom(source: any = {}) {
	        return new AboutInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.goVersion = source["goVersion"];
	        this.wailsVersion = source["wailsVersion"];
	        this.platform = source["platform"];
	        this.dataDir = source["dataDir"];
	        this.logFile = source["logFile"];
	        this.changelog = source["changelog"];
	    }
	}
	export class AppInfo {
	    version: string;
	    dataDir: string;
	    locale: string;
	    uiLanguage: string;
	
	    static createFrom(source: any = {}) {
	        return new AppInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.dataDir = source["dataDir"];
	        this.locale = source["locale"];
	        this.uiLanguage = source["uiLanguage"];
	    }
	}
	export class ArchiveExport {
	    path: string;
	    chats: number;
	
	    static createFrom(source: any = {}) {
	        return new ArchiveExport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.chats = source["chats"];
	    }
	}
	export class AssistantFileResult {
	    assistants: assistant.Assistant[];
	
	    static createFrom(source: any = {}) {
	        return new AssistantFileResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.assistants = this.convertValues(source["assistants"], assistant.Assistant);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Attachment {
	    name: string;
	    kind: string;
	    mime: string;
	    sha256: string;
	    size: number;
	    width: number;
	    height: number;
	    chars: number;
	    pages: number;
	    sentPages: number;
	    sentChars: number;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.mime = source["mime"];
	        this.sha256 = source["sha256"];
	        this.size = source["size"];
	        this.width = source["width"];
	        this.height = source["height"];
	        this.chars = source["chars"];
	        this.pages = source["pages"];
	        this.sentPages = source["sentPages"];
	        this.sentChars = source["sentChars"];
	    }
	}
	export class BackupInfo {
	    createdAt: string;
	    appVersion: string;
	    secrets: boolean;
	    sessions: number;
	    messages: number;
	    notes: number;
	    kbFiles: number;
	    path: string;
	
	    static createFrom(source: any = {}) {
	        return new BackupInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.createdAt = source["createdAt"];
	        this.appVersion = source["appVersion"];
	        this.secrets = source["secrets"];
	        this.sessions = source["sessions"];
	        this.messages = source["messages"];
	        this.notes = source["notes"];
	        this.kbFiles = source["kbFiles"];
	        this.path = source["path"];
	    }
	}
	export class BackupRun {
	    at: string;
	    ok: boolean;
	    error: string;
	    path: string;
	    size: number;
	    auto: boolean;
	
	    static createFrom(source: any = {}) {
	        return new BackupRun(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.at = source["at"];
	        this.ok = source["ok"];
	        this.error = source["error"];
	        this.path = source["path"];
	        this.size = source["size"];
	        this.auto = source["auto"];
	    }
	}
	export class RestoreRun {
	    at: string;
	    archiveCreatedAt: string;
	    ok: boolean;
	    error: string;
	    safety: string;
	
	    static createFrom(source: any = {}) {
	        return new RestoreRun(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.at = source["at"];
	        this.archiveCreatedAt = source["archiveCreatedAt"];
	        this.ok = source["ok"];
	        this.error = source["error"];
	        this.safety = source["safety"];
	    }
	}
	export class BackupStatus {
	    lastBackup?: BackupRun;
	    lastSuccess?: BackupRun;
	    lastRestore?: RestoreRun;
	    pending?: BackupInfo;
	    dir: string;
	    auto: boolean;
	    keep: number;
	    webdav: string;
	    running: boolean;
	
	    static createFrom(source: any = {}) {
	        return new BackupStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.lastBackup = this.convertValues(source["lastBackup"], BackupRun);
	        this.lastSuccess = this.convertValues(source["lastSuccess"], BackupRun);
	        this.lastRestore = this.convertValues(source["lastRestore"], RestoreRun);
	        this.pending = this.convertValues(source["pending"], BackupInfo);
	        this.dir = source["dir"];
	        this.auto = source["auto"];
	        this.keep = source["keep"];
	        this.webdav = source["webdav"];
	        this.running = source["running"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChatSettingsView {
	    sessionId: string;
	    settings: store.ChatSettings;
	    assistant: assistant.ChatAssistant;
	    unsupported: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new ChatSettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.settings = this.convertValues(source["settings"], store.ChatSettings);
	        this.assistant = this.convertValues(source["assistant"], assistant.ChatAssistant);
	        this.unsupported = source["unsupported"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChosenArchive {
	    path: string;
	    encrypted: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ChosenArchive(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.encrypted = source["encrypted"];
	    }
	}
	export class DesktopStatus {
	    trayAvailable: boolean;
	    trayReason: string;
	    autostartSupported: boolean;
	    autostartError: string;
	
	    static createFrom(source: any = {}) {
	        return new DesktopStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.trayAvailable = source["trayAvailable"];
	        this.trayReason = source["trayReason"];
	        this.autostartSupported = source["autostartSupported"];
	        this.autostartError = source["autostartError"];
	    }
	}
	export class DiscordStatus {
	    state: string;
	    user: string;
	    reason: string;
	    reasonCode: string;
	    since: string;
	
	    static createFrom(source: any = {}) {
	        return new DiscordStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.state = source["state"];
	        this.user = source["user"];
	        this.reason = source["reason"];
	        this.reasonCode = source["reasonCode"];
	        this.since = source["since"];
	    }
	}
	export class EditRequest {
	    turnId: string;
	    sessionId: string;
	    messageId: number;
	    text: string;
	    model: string;
	    fitAttachments: boolean;
	
	    static createFrom(source: any = {}) {
	        return new EditRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turnId = source["turnId"];
	        this.sessionId = source["sessionId"];
	        this.messageId = source["messageId"];
	        this.text = source["text"];
	        this.model = source["model"];
	        this.fitAttachments = source["fitAttachments"];
	    }
	}
	export class ExcerptPart {
	    text: string;
	    match: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ExcerptPart(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.match = source["match"];
	    }
	}
	export class Folder {
	    id: number;
	    name: string;
	    position: number;
	
	    static createFrom(source: any = {}) {
	        return new Folder(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.position = source["position"];
	    }
	}
	export class ImageSetting {
	    model: string;
	    override: string;
	    table: string;
	    effective: string;
	
	    static createFrom(source: any = {}) {
	        return new ImageSetting(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.override = source["override"];
	        this.table = source["table"];
	        this.effective = source["effective"];
	    }
	}
	export class ImportResult {
	    session: session.Summary;
	    messages: number;
	    memories: number;
	    format: string;
	    sessions: number;
	    placeholders: number;
	    skipped: number;
	    skippedConversations: number;
	    branches: number;
	    truncated: number;
	
	    static createFrom(source: any = {}) {
	        return new ImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], session.Summary);
	        this.messages = source["messages"];
	        this.memories = source["memories"];
	        this.format = source["format"];
	        this.sessions = source["sessions"];
	        this.placeholders = source["placeholders"];
	        this.skipped = source["skipped"];
	        this.skippedConversations = source["skippedConversations"];
	        this.branches = source["branches"];
	        this.truncated = source["truncated"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class InteropOverview {
	    http: interop.ServingStatus;
	    enabled: boolean;
	    port: number;
	    token: string;
	    allowWrite: boolean;
	    shareNotes: boolean;
	    binary: string;
	    configs: interop.ClientConfig[];
	    api: apiserver.RunnerStatus;
	    apiEnabled: boolean;
	    apiToken: string;
	
	    static createFrom(source: any = {}) {
	        return new InteropOverview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.http = this.convertValues(source["http"], interop.ServingStatus);
	        this.enabled = source["enabled"];
	        this.port = source["port"];
	        this.token = source["token"];
	        this.allowWrite = source["allowWrite"];
	        this.shareNotes = source["shareNotes"];
	        this.binary = source["binary"];
	        this.configs = this.convertValues(source["configs"], interop.ClientConfig);
	        this.api = this.convertValues(source["api"], apiserver.RunnerStatus);
	        this.apiEnabled = source["apiEnabled"];
	        this.apiToken = source["apiToken"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class InteropTest {
	    mcp: interop.ProbeResult[];
	    apiModels: number;
	    apiMillis: number;
	
	    static createFrom(source: any = {}) {
	        return new InteropTest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mcp = this.convertValues(source["mcp"], interop.ProbeResult);
	        this.apiModels = source["apiModels"];
	        this.apiMillis = source["apiMillis"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class KBDoc {
	    path: string;
	    title: string;
	    content: string;
	    size: number;
	    modTime: string;
	    learned?: kb.LearnedInfo;
	
	    static createFrom(source: any = {}) {
	        return new KBDoc(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.title = source["title"];
	        this.content = source["content"];
	        this.size = source["size"];
	        this.modTime = source["modTime"];
	        this.learned = this.convertValues(source["learned"], kb.LearnedInfo);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class KBHit {
	    rank: number;
	    path: string;
	    title: string;
	    heading: string;
	    score: number;
	    excerpt: string;
	
	    static createFrom(source: any = {}) {
	        return new KBHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.rank = source["rank"];
	        this.path = source["path"];
	        this.title = source["title"];
	        this.heading = source["heading"];
	        this.score = source["score"];
	        this.excerpt = source["excerpt"];
	    }
	}
	export class KBNode {
	    name: string;
	    path: string;
	    dir: boolean;
	    title: string;
	    size: number;
	    error: string;
	    errorInfo?: apperr.Info;
	    count: number;
	    learned: boolean;
	    children: KBNode[];
	
	    static createFrom(source: any = {}) {
	        return new KBNode(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.path = source["path"];
	        this.dir = source["dir"];
	        this.title = source["title"];
	        this.size = source["size"];
	        this.error = source["error"];
	        this.errorInfo = this.convertValues(source["errorInfo"], apperr.Info);
	        this.count = source["count"];
	        this.learned = source["learned"];
	        this.children = this.convertValues(source["children"], KBNode);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class KnowledgeEntry {
	    id: number;
	    query: string;
	    heading: string;
	    body: string;
	    model: string;
	    provider: string;
	    file: string;
	    summarised: boolean;
	    fetchedAt: string;
	    createdAt: string;
	    sources: event.Source[];
	
	    static createFrom(source: any = {}) {
	        return new KnowledgeEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.query = source["query"];
	        this.heading = source["heading"];
	        this.body = source["body"];
	        this.model = source["model"];
	        this.provider = source["provider"];
	        this.file = source["file"];
	        this.summarised = source["summarised"];
	        this.fetchedAt = source["fetchedAt"];
	        this.createdAt = source["createdAt"];
	        this.sources = this.convertValues(source["sources"], event.Source);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LogDetail {
	    id: number;
	    sessionId: string;
	    model: string;
	    purpose: string;
	    error: string;
	    errorInfo?: apperr.Info;
	    latencyMs: number;
	    createdAt: string;
	    preview: string;
	    promptTokens: number;
	    completionTokens: number;
	    requestJson: string;
	    responseText: string;
	
	    static createFrom(source: any = {}) {
	        return new LogDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.model = source["model"];
	        this.purpose = source["purpose"];
	        this.error = source["error"];
	        this.errorInfo = this.convertValues(source["errorInfo"], apperr.Info);
	        this.latencyMs = source["latencyMs"];
	        this.createdAt = source["createdAt"];
	        this.preview = source["preview"];
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	        this.requestJson = source["requestJson"];
	        this.responseText = source["responseText"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LogEntry {
	    id: number;
	    sessionId: string;
	    model: string;
	    purpose: string;
	    error: string;
	    errorInfo?: apperr.Info;
	    latencyMs: number;
	    createdAt: string;
	    preview: string;
	    promptTokens: number;
	    completionTokens: number;
	
	    static createFrom(source: any = {}) {
	        return new LogEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.model = source["model"];
	        this.purpose = source["purpose"];
	        this.error = source["error"];
	        this.errorInfo = this.convertValues(source["errorInfo"], apperr.Info);
	        this.latencyMs = source["latencyMs"];
	        this.createdAt = source["createdAt"];
	        this.preview = source["preview"];
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LogUsage {
	    sessionId: string;
	    title: string;
	    calls: number;
	    promptTokens: number;
	    completionTokens: number;
	
	    static createFrom(source: any = {}) {
	        return new LogUsage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.title = source["title"];
	        this.calls = source["calls"];
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	    }
	}
	export class LogPage {
	    entries: LogEntry[];
	    total: number;
	    usage: LogUsage[];
	
	    static createFrom(source: any = {}) {
	        return new LogPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entries = this.convertValues(source["entries"], LogEntry);
	        this.total = source["total"];
	        this.usage = this.convertValues(source["usage"], LogUsage);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Memory {
	    id: number;
	    sessionId: string;
	    summary: string;
	    messageCount: number;
	    createdAt: string;
	
	    static createFrom(source: any = {}) {
	        return new Memory(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.summary = source["summary"];
	        this.messageCount = source["messageCount"];
	        this.createdAt = source["createdAt"];
	    }
	}
	export class MemoryStatus {
	    state: string;
	    failures: number;
	    lastError: string;
	    lastErrorInfo?: apperr.Info;
	    nextAttempt: string;
	
	    static createFrom(source: any = {}) {
	        return new MemoryStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.state = source["state"];
	        this.failures = source["failures"];
	        this.lastError = source["lastError"];
	        this.lastErrorInfo = this.convertValues(source["lastErrorInfo"], apperr.Info);
	        this.nextAttempt = source["nextAttempt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Message {
	    id: number;
	    sessionId: string;
	    role: string;
	    content: string;
	    status: string;
	    error: string;
	    errorInfo?: apperr.Info;
	    model: string;
	    createdAt: string;
	    archived: boolean;
	    forgotten: boolean;
	    tools: event.ToolActivity[];
	    sources: event.Source[];
	    parentId: number;
	    attachments: Attachment[];
	    siblingIds?: number[];
	    tags: string[];
	    unanswered?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.role = source["role"];
	        this.content = source["content"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.errorInfo = this.convertValues(source["errorInfo"], apperr.Info);
	        this.model = source["model"];
	        this.createdAt = source["createdAt"];
	        this.archived = source["archived"];
	        this.forgotten = source["forgotten"];
	        this.tools = this.convertValues(source["tools"], event.ToolActivity);
	        this.sources = this.convertValues(source["sources"], event.Source);
	        this.parentId = source["parentId"];
	        this.attachments = this.convertValues(source["attachments"], Attachment);
	        this.siblingIds = source["siblingIds"];
	        this.tags = source["tags"];
	        this.unanswered = source["unanswered"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ModelPreset {
	    id: number;
	    label: string;
	    value: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelPreset(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.label = source["label"];
	        this.value = source["value"];
	    }
	}
	export class ModelOptions {
	    defaultModel: string;
	    presets: ModelPreset[];
	    discovered: string[];
	    configured: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ModelOptions(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.defaultModel = source["defaultModel"];
	        this.presets = this.convertValues(source["presets"], ModelPreset);
	        this.discovered = source["discovered"];
	        this.configured = source["configured"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class NotePage {
	    id: number;
	    title: string;
	    content: string;
	    section: string;
	    position: number;
	    updatedAt: string;
	    version: number;
	
	    static createFrom(source: any = {}) {
	        return new NotePage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.content = source["content"];
	        this.section = source["section"];
	        this.position = source["position"];
	        this.updatedAt = source["updatedAt"];
	        this.version = source["version"];
	    }
	}
	export class NoteSave {
	    saved: boolean;
	    page: NotePage;
	
	    static createFrom(source: any = {}) {
	        return new NoteSave(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.saved = source["saved"];
	        this.page = this.convertValues(source["page"], NotePage);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Place {
	    pinnedAt: string;
	    folderId: number;
	    archivedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new Place(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.pinnedAt = source["pinnedAt"];
	        this.folderId = source["folderId"];
	        this.archivedAt = source["archivedAt"];
	    }
	}
	export class Organisation {
	    folders: Folder[];
	    places: Record<string, Place>;
	
	    static createFrom(source: any = {}) {
	        return new Organisation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.folders = this.convertValues(source["folders"], Folder);
	        this.places = this.convertValues(source["places"], Place, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class RegenerateRequest {
	    turnId: string;
	    sessionId: string;
	    model: string;
	    questionId: number;
	    fitAttachments: boolean;
	
	    static createFrom(source: any = {}) {
	        return new RegenerateRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turnId = source["turnId"];
	        this.sessionId = source["sessionId"];
	        this.model = source["model"];
	        this.questionId = source["questionId"];
	        this.fitAttachments = source["fitAttachments"];
	    }
	}
	export class ReminderInput {
	    content: string;
	    due: string;
	    repeat: string;
	    sessionId: string;
	
	    static createFrom(source: any = {}) {
	        return new ReminderInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.content = source["content"];
	        this.due = source["due"];
	        this.repeat = source["repeat"];
	        this.sessionId = source["sessionId"];
	    }
	}
	export class ReminderItem {
	    id: number;
	    content: string;
	    dueAt: string;
	    zone: string;
	    repeat: string;
	    state: string;
	    error: string;
	    note: string;
	    late: boolean;
	    sessionId: string;
	    origin: string;
	    createdAt: string;
	    notifiedAt: string;
	    cancelledAt: string;
	    unseen: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ReminderItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.content = source["content"];
	        this.dueAt = source["dueAt"];
	        this.zone = source["zone"];
	        this.repeat = source["repeat"];
	        this.state = source["state"];
	        this.error = source["error"];
	        this.note = source["note"];
	        this.late = source["late"];
	        this.sessionId = source["sessionId"];
	        this.origin = source["origin"];
	        this.createdAt = source["createdAt"];
	        this.notifiedAt = source["notifiedAt"];
	        this.cancelledAt = source["cancelledAt"];
	        this.unseen = source["unseen"];
	    }
	}
	export class ReminderList {
	    upcoming: ReminderItem[];
	    past: ReminderItem[];
	    unseen: number;
	    zone: string;
	
	    static createFrom(source: any = {}) {
	        return new ReminderList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.upcoming = this.convertValues(source["upcoming"], ReminderItem);
	        this.past = this.convertValues(source["past"], ReminderItem);
	        this.unseen = source["unseen"];
	        this.zone = source["zone"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SearchHit {
	    sessionId: string;
	    sessionTitle: string;
	    messageId: number;
	    role: string;
	    createdAt: string;
	    archived: boolean;
	    excerpt: ExcerptPart[];
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.sessionTitle = source["sessionTitle"];
	        this.messageId = source["messageId"];
	        this.role = source["role"];
	        this.createdAt = source["createdAt"];
	        this.archived = source["archived"];
	        this.excerpt = this.convertValues(source["excerpt"], ExcerptPart);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SearchRequest {
	    query: string;
	    sessionId: string;
	    from: string;
	    to: string;
	    limit: number;
	
	    static createFrom(source: any = {}) {
	        return new SearchRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.query = source["query"];
	        this.sessionId = source["sessionId"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.limit = source["limit"];
	    }
	}
	export class SendRequest {
	    turnId: string;
	    sessionId: string;
	    text: string;
	    model: string;
	    notePageIds: number[];
	    assistantId: number;
	    attachmentIds: string[];
	    fitAttachments: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SendRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turnId = source["turnId"];
	        this.sessionId = source["sessionId"];
	        this.text = source["text"];
	        this.model = source["model"];
	        this.notePageIds = source["notePageIds"];
	        this.assistantId = source["assistantId"];
	        this.attachmentIds = source["attachmentIds"];
	        this.fitAttachments = source["fitAttachments"];
	    }
	}
	export class SettingField {
	    key: string;
	    value: string;
	    secret: boolean;
	    isSet: boolean;
	    source: string;
	    label: string;
	    group: string;
	    kind: string;
	    default: string;
	    choices: string[];
	    doc: string;
	    error?: apperr.Info;
	    min?: number;
	    max?: number;
	
	    static createFrom(source: any = {}) {
	        return new SettingField(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.value = source["value"];
	        this.secret = source["secret"];
	        this.isSet = source["isSet"];
	        this.source = source["source"];
	        this.label = source["label"];
	        this.group = source["group"];
	        this.kind = source["kind"];
	        this.default = source["default"];
	        this.choices = source["choices"];
	        this.doc = source["doc"];
	        this.error = this.convertValues(source["error"], apperr.Info);
	        this.min = source["min"];
	        this.max = source["max"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SettingsUpdate {
	    values: Record<string, string>;
	    clear: string[];
	
	    static createFrom(source: any = {}) {
	        return new SettingsUpdate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.values = source["values"];
	        this.clear = source["clear"];
	    }
	}
	export class SettingsView {
	    fields: SettingField[];
	    dataDir: string;
	    desktop: DesktopStatus;
	
	    static createFrom(source: any = {}) {
	        return new SettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.fields = this.convertValues(source["fields"], SettingField);
	        this.dataDir = source["dataDir"];
	        this.desktop = this.convertValues(source["desktop"], DesktopStatus);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class StagedAttachment {
	    id: string;
	    name: string;
	    kind: string;
	    mime: string;
	    size: number;
	    width: number;
	    height: number;
	    chars: number;
	    pages: number;
	    thumbnail: string;
	    error?: apperr.Info;
	
	    static createFrom(source: any = {}) {
	        return new StagedAttachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.mime = source["mime"];
	        this.size = source["size"];
	        this.width = source["width"];
	        this.height = source["height"];
	        this.chars = source["chars"];
	        this.pages = source["pages"];
	        this.thumbnail = source["thumbnail"];
	        this.error = this.convertValues(source["error"], apperr.Info);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class StartupStatus {
	    ok: boolean;
	    error?: apperr.Info;
	    dataDir: string;
	    locale: string;
	    uiLanguage: string;
	
	    static createFrom(source: any = {}) {
	        return new StartupStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.error = this.convertValues(source["error"], apperr.Info);
	        this.dataDir = source["dataDir"];
	        this.locale = source["locale"];
	        this.uiLanguage = source["uiLanguage"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class StoredContextReport {
	    found: boolean;
	    report: chat.ContextReport;
	
	    static createFrom(source: any = {}) {
	        return new StoredContextReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.found = source["found"];
	        this.report = this.convertValues(source["report"], chat.ContextReport);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ToolsConfig {
	    name: string;
	    transport: string;
	    command: string;
	    args: string[];
	    env: Record<string, string>;
	    cwd: string;
	    url: string;
	    headers: Record<string, string>;
	    disabled: boolean;
	    askFirst: boolean;
	    alwaysAllow: boolean;
	    allowDiscord: boolean;
	    timeoutSeconds: number;
	
	    static createFrom(source: any = {}) {
	        return new ToolsConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = source["headers"];
	        this.disabled = source["disabled"];
	        this.askFirst = source["askFirst"];
	        this.alwaysAllow = source["alwaysAllow"];
	        this.allowDiscord = source["allowDiscord"];
	        this.timeoutSeconds = source["timeoutSeconds"];
	    }
	}
	export class ToolsTool {
	    name: string;
	    modelName: string;
	    title: string;
	    description: string;
	    enabled: boolean;
	    readOnly: boolean;
	    destructive: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolsTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.modelName = source["modelName"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.enabled = source["enabled"];
	        this.readOnly = source["readOnly"];
	        this.destructive = source["destructive"];
	    }
	}
	export class ToolsServer {
	    name: string;
	    transport: string;
	    state: string;
	    reason: string;
	    exitCode?: number;
	    stderr: string[];
	    logFile: string;
	    tools: ToolsTool[];
	    config: ToolsConfig;
	
	    static createFrom(source: any = {}) {
	        return new ToolsServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.transport = source["transport"];
	        this.state = source["state"];
	        this.reason = source["reason"];
	        this.exitCode = source["exitCode"];
	        this.stderr = source["stderr"];
	        this.logFile = source["logFile"];
	        this.tools = this.convertValues(source["tools"], ToolsTool);
	        this.config = this.convertValues(source["config"], ToolsConfig);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ToolsRefusal {
	    name: string;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolsRefusal(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.reason = source["reason"];
	    }
	}
	export class ToolsImport {
	    applied: boolean;
	    added: string[];
	    replaced: string[];
	    refused: ToolsRefusal[];
	    servers: ToolsServer[];
	
	    static createFrom(source: any = {}) {
	        return new ToolsImport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.applied = source["applied"];
	        this.added = source["added"];
	        this.replaced = source["replaced"];
	        this.refused = this.convertValues(source["refused"], ToolsRefusal);
	        this.servers = this.convertValues(source["servers"], ToolsServer);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	export class TurnStart {
	    turnId: string;
	    sessionId: string;
	    userMessage: Message;
	    model: string;
	
	    static createFrom(source: any = {}) {
	        return new TurnStart(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turnId = source["turnId"];
	        this.sessionId = source["sessionId"];
	        this.userMessage = this.convertValues(source["userMessage"], Message);
	        this.model = source["model"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class WebSearchTest {
	    provider: string;
	    query: string;
	    count: number;
	    titles: string[];
	
	    static createFrom(source: any = {}) {
	        return new WebSearchTest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.query = source["query"];
	        this.count = source["count"];
	        this.titles = source["titles"];
	    }
	}

}

export namespace apperr {
	
	export class Info {
	    code: string;
	    params?: Record<string, any>;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new Info(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.params = source["params"];
	        this.message = source["message"];
	    }
	}

}

export namespace assistant {
	
	export class Assistant {
	    id: number;
	    name: string;
	    icon: string;
	    description: string;
	    settings: store.ChatSettings;
	    notePageIds: number[];
	    position: number;
	    version: number;
	    builtin: string;
	    createdAt: string;
	    updatedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new Assistant(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.icon = source["icon"];
	        this.description = source["description"];
	        this.settings = this.convertValues(source["settings"], store.ChatSettings);
	        this.notePageIds = source["notePageIds"];
	        this.position = source["position"];
	        this.version = source["version"];
	        this.builtin = source["builtin"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChatAssistant {
	    assistant?: Assistant;
	    copiedVersion: number;
	    newer: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ChatAssistant(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.assistant = this.convertValues(source["assistant"], Assistant);
	        this.copiedVersion = source["copiedVersion"];
	        this.newer = source["newer"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Draft {
	    name: string;
	    icon: string;
	    description: string;
	    settings: store.ChatSettings;
	    notePageIds: number[];
	
	    static createFrom(source: any = {}) {
	        return new Draft(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.icon = source["icon"];
	        this.description = source["description"];
	        this.settings = this.convertValues(source["settings"], store.ChatSettings);
	        this.notePageIds = source["notePageIds"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace chat {
	
	export class HistoryUsage {
	    tokens: number;
	    sent: number;
	    leftOut: number;
	
	    static createFrom(source: any = {}) {
	        return new HistoryUsage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tokens = source["tokens"];
	        this.sent = source["sent"];
	        this.leftOut = source["leftOut"];
	    }
	}
	export class ContextReport {
	    model: string;
	    window: number;
	    output: number;
	    input: number;
	    used: number;
	    prompt: number;
	    system: number;
	    systemFull: number;
	    systemCut: boolean;
	    tools: number;
	    toolsSent: number;
	    toolsLeftOut: layer.Omission[];
	    message: number;
	    attachments: number;
	    layers: layer.Usage[];
	    history: HistoryUsage;
	    preview: boolean;
	    tooLong: boolean;
	    attachmentsTooLong?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ContextReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.window = source["window"];
	        this.output = source["output"];
	        this.input = source["input"];
	        this.used = source["used"];
	        this.prompt = source["prompt"];
	        this.system = source["system"];
	        this.systemFull = source["systemFull"];
	        this.systemCut = source["systemCut"];
	        this.tools = source["tools"];
	        this.toolsSent = source["toolsSent"];
	        this.toolsLeftOut = this.convertValues(source["toolsLeftOut"], layer.Omission);
	        this.message = source["message"];
	        this.attachments = source["attachments"];
	        this.layers = this.convertValues(source["layers"], layer.Usage);
	        this.history = this.convertValues(source["history"], HistoryUsage);
	        this.preview = source["preview"];
	        this.tooLong = source["tooLong"];
	        this.attachmentsTooLong = source["attachmentsTooLong"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class PreviewRequest {
	    sessionId: string;
	    text: string;
	    model: string;
	    chatSettings?: store.ChatSettings;
	
	    static createFrom(source: any = {}) {
	        return new PreviewRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.text = source["text"];
	        this.model = source["model"];
	        this.chatSettings = this.convertValues(source["chatSettings"], store.ChatSettings);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace discord {
	
	export class Channel {
	    id: string;
	    name: string;
	    guildId: string;
	    sessionId: string;
	    assistantId: number;
	
	    static createFrom(source: any = {}) {
	        return new Channel(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.guildId = source["guildId"];
	        this.sessionId = source["sessionId"];
	        this.assistantId = source["assistantId"];
	    }
	}

}

export namespace event {
	
	export class Source {
	    title: string;
	    url: string;
	
	    static createFrom(source: any = {}) {
	        return new Source(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.url = source["url"];
	    }
	}
	export class ToolActivity {
	    id: string;
	    name?: string;
	    label?: string;
	    detail?: string;
	    status: string;
	    result?: string;
	    server?: string;
	    approval?: boolean;
	    decision?: string;
	    error?: apperr.Info;
	
	    static createFrom(source: any = {}) {
	        return new ToolActivity(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.label = source["label"];
	        this.detail = source["detail"];
	        this.status = source["status"];
	        this.result = source["result"];
	        this.server = source["server"];
	        this.approval = source["approval"];
	        this.decision = source["decision"];
	        this.error = this.convertValues(source["error"], apperr.Info);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace interop {
	
	export class ClientConfig {
	    client: string;
	    file: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new ClientConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.client = source["client"];
	        this.file = source["file"];
	        this.text = source["text"];
	    }
	}
	export class ProbeResult {
	    transport: string;
	    tools: number;
	    domains: number;
	    millis: number;
	
	    static createFrom(source: any = {}) {
	        return new ProbeResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.transport = source["transport"];
	        this.tools = source["tools"];
	        this.domains = source["domains"];
	        this.millis = source["millis"];
	    }
	}
	export class ServingStatus {
	    running: boolean;
	    url: string;
	    err: string;
	
	    static createFrom(source: any = {}) {
	        return new ServingStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.running = source["running"];
	        this.url = source["url"];
	        this.err = source["err"];
	    }
	}

}

export namespace kb {
	
	export class DropSkip {
	    path: string;
	    reason: string;
	    detail: string;
	
	    static createFrom(source: any = {}) {
	        return new DropSkip(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.reason = source["reason"];
	        this.detail = source["detail"];
	    }
	}
	export class DropReport {
	    copied: string[];
	    skipped: DropSkip[];
	    skippedMore: number;
	    bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new DropReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.copied = source["copied"];
	        this.skipped = this.convertValues(source["skipped"], DropSkip);
	        this.skippedMore = source["skippedMore"];
	        this.bytes = source["bytes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class FailedDoc {
	    path: string;
	    error: string;
	    errorInfo?: apperr.Info;
	
	    static createFrom(source: any = {}) {
	        return new FailedDoc(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.error = source["error"];
	        this.errorInfo = this.convertValues(source["errorInfo"], apperr.Info);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Provenance {
	    title: string;
	    learned: boolean;
	    id: string;
	    domain: string;
	    sourceType: string;
	    sourceId: string;
	    client: string;
	    confidence: number;
	    derivedFrom: string[];
	    createdAt: string;
	    contentHash: string;
	
	    static createFrom(source: any = {}) {
	        return new Provenance(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.learned = source["learned"];
	        this.id = source["id"];
	        this.domain = source["domain"];
	        this.sourceType = source["sourceType"];
	        this.sourceId = source["sourceId"];
	        this.client = source["client"];
	        this.confidence = source["confidence"];
	        this.derivedFrom = source["derivedFrom"];
	        this.createdAt = source["createdAt"];
	        this.contentHash = source["contentHash"];
	    }
	}
	export class LearnedInfo {
	    path: string;
	    provenance: Provenance;
	    edited: boolean;
	
	    static createFrom(source: any = {}) {
	        return new LearnedInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.provenance = this.convertValues(source["provenance"], Provenance);
	        this.edited = source["edited"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Progress {
	    done: number;
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new Progress(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.done = source["done"];
	        this.total = source["total"];
	    }
	}
	
	export class Status {
	    root: string;
	    indexed: number;
	    pending: number;
	    failed: FailedDoc[];
	    lastIndexedAt: string;
	    indexing: boolean;
	    progress: Progress;
	    watching: boolean;
	    watchError: string;
	    watchErrorInfo?: apperr.Info;
	    embeddingModel: string;
	    embedded: number;
	    embeddingPending: number;
	    embeddingError: string;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.root = source["root"];
	        this.indexed = source["indexed"];
	        this.pending = source["pending"];
	        this.failed = this.convertValues(source["failed"], FailedDoc);
	        this.lastIndexedAt = source["lastIndexedAt"];
	        this.indexing = source["indexing"];
	        this.progress = this.convertValues(source["progress"], Progress);
	        this.watching = source["watching"];
	        this.watchError = source["watchError"];
	        this.watchErrorInfo = this.convertValues(source["watchErrorInfo"], apperr.Info);
	        this.embeddingModel = source["embeddingModel"];
	        this.embedded = source["embedded"];
	        this.embeddingPending = source["embeddingPending"];
	        this.embeddingError = source["embeddingError"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace layer {
	
	export class Item {
	    kind: string;
	    id: string;
	    title: string;
	
	    static createFrom(source: any = {}) {
	        return new Item(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.id = source["id"];
	        this.title = source["title"];
	    }
	}
	export class Omission {
	    kind: string;
	    id: string;
	    title: string;
	    reason: string;
	    kept: number;
	    total: number;
	    unit: string;
	
	    static createFrom(source: any = {}) {
	        return new Omission(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.id = source["id"];
	        this.title = source["title"];
	        this.reason = source["reason"];
	        this.kept = source["kept"];
	        this.total = source["total"];
	        this.unit = source["unit"];
	    }
	}
	export class Usage {
	    layer: string;
	    tokens: number;
	    fullTokens: number;
	    included: Item[];
	    leftOut: Omission[];
	    includedMore: number;
	    leftOutMore: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.layer = source["layer"];
	        this.tokens = source["tokens"];
	        this.fullTokens = source["fullTokens"];
	        this.included = this.convertValues(source["included"], Item);
	        this.leftOut = this.convertValues(source["leftOut"], Omission);
	        this.includedMore = source["includedMore"];
	        this.leftOutMore = source["leftOutMore"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace session {
	
	export class Summary {
	    id: string;
	    title: string;
	    model: string;
	    createdAt: string;
	    updatedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new Summary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.model = source["model"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	    }
	}

}

export namespace store {
	
	export class ChatSettings {
	    systemPrompt?: string;
	    model?: string;
	    temperature?: number;
	    topP?: number;
	    maxOutputTokens?: number;
	    layersOff?: string[];
	    kbDomain?: string;
	
	    static createFrom(source: any = {}) {
	        return new ChatSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.systemPrompt = source["systemPrompt"];
	        this.model = source["model"];
	        this.temperature = source["temperature"];
	        this.topP = source["topP"];
	        this.maxOutputTokens = source["maxOutputTokens"];
	        this.layersOff = source["layersOff"];
	        this.kbDomain = source["kbDomain"];
	    }
	}

}

