//! Bundles in the state shapes of the public CUA-Gym-Hub mocks (their SCHEMA.md): google_docs'
//! map of documents keyed by id, google_calendar's scalar `currentDate` and `view`, and a mailbox
//! whose reward reads what an unset session shows. Every script reaches its app through the
//! self-hosted port convention (`http://localhost:8000`, which a single-app environment answers
//! whatever app it runs), and reads the harness's sid from /tmp/task_web_sid.

/// `post(action, state)` and `go()` against the environment's only app.
const PRELUDE: &str = r#"import json, urllib.request
BASE = 'http://localhost:8000'
SID = open('/tmp/task_web_sid').read().strip()
def post(action, state):
    req = urllib.request.Request(BASE + '/post?sid=' + SID,
        data=json.dumps({'action': action, 'state': state}).encode(),
        headers={'Content-Type': 'application/json'})
    urllib.request.urlopen(req, timeout=30).read()
def go():
    with urllib.request.urlopen(BASE + '/go?sid=' + SID, timeout=30) as r:
        return json.loads(r.read().decode()).get('current_state') or {}
"#;

/// `PRELUDE` followed by `body`.
pub fn script(body: &str) -> String {
    format!("{PRELUDE}{body}")
}

/// google_docs: two documents in the id-keyed `documents` map, users and a comment.
pub const DOCS_SETUP: &str = r#"
def doc(i, title):
    return {'id': i, 'title': title, 'content': '<p>Draft</p>', 'ownerId': 'user-1',
            'starred': False, 'sharedWith': [], 'linkSharing': {'enabled': False, 'permission': 'viewer'}}
post('set', {'currentUser': {'id': 'user-1', 'name': 'Demo User', 'email': 'demo@example.com'},
             'users': [{'id': 'user-%d' % n, 'name': 'User %d' % n} for n in range(1, 6)],
             'documents': {'doc-1': doc('doc-1', 'Project Proposal'), 'doc-2': doc('doc-2', 'Meeting Notes')},
             'comments': [{'id': 'comment-1', 'docId': 'doc-2', 'userId': 'user-2', 'content': 'ok',
                           'resolved': False, 'replies': []}],
             'ui': {'currentDocId': None, 'zoom': 100}})
"#;

/// Renames doc-1 (google_docs_020's kind of edit: one field of one document of the map).
pub const DOCS_GOLDEN: &str = r#"
s = go()
s['documents']['doc-1']['title'] = 'Q3 Proposal'
post('set_current', s)
"#;

/// A correct reward: doc-1 renamed, doc-2 untouched. It scores 1.0 on any state still holding
/// the golden documents, so a probe that leaves the map alone fails it.
pub const DOCS_REWARD: &str = r#"
docs = go().get('documents') or {}
a = docs.get('doc-1', {}).get('title') == 'Q3 Proposal'
print(('PASS' if a else 'FAIL') + ': doc-1 renamed to Q3 Proposal')
b = a and docs.get('doc-2', {}).get('title') == 'Meeting Notes'
print(('PASS' if b else 'FAIL') + ': Meeting Notes untouched')
print('REWARD: ' + str((0.6 if a else 0.0) + (0.4 if b else 0.0)))
"#;

/// google_calendar: events and calendars (lists), the scalars `currentDate` and `view`.
pub const CAL_SETUP: &str = r#"
post('set', {'user': {'id': 'u1', 'username': 'Demo User', 'email': 'demo@example.com'},
             'calendars': [{'id': 'c1', 'name': 'Personal', 'visible': True, 'isDefault': True}],
             'events': [{'id': 'evt_001', 'calendarId': 'c1', 'title': 'Team Standup',
                         'start': '2026-03-13T09:00:00.000Z', 'end': '2026-03-13T09:30:00.000Z'}],
             'view': 'week', 'currentDate': '2026-03-13T00:00:00.000Z', 'sidebarOpen': True,
             'settings': {'weekStart': 0, 'timeFormat': '12h'}})
"#;

/// "Show the month of 20 March": only the scalars change.
pub const CAL_GOLDEN: &str = r#"
s = go()
s['currentDate'] = '2026-03-20T00:00:00.000Z'
s['view'] = 'month'
post('set_current', s)
"#;

/// A correct reward: the calendar shows 20 March, in month view.
pub const CAL_REWARD: &str = r#"
s = go()
a = str(s.get('currentDate', '')).startswith('2026-03-20')
print(('PASS' if a else 'FAIL') + ': calendar on 20 March')
b = a and s.get('view') == 'month'
print(('PASS' if b else 'FAIL') + ': month view')
print('REWARD: ' + str((0.5 if a else 0.0) + (0.5 if b else 0.0)))
"#;

/// One inbox message in the mail shape (`messages`, `folder`).
pub const MAIL_SETUP: &str = r#"
post('set', {'messages': [{'id': 'w1', 'threadId': 'w1', 'folder': 'inbox', 'subject': 'Weekly report',
                           'from': {'name': 'Ana', 'email': 'ana@example.com'}, 'to': [], 'cc': [],
                           'isRead': False, 'isStarred': False, 'labels': [], 'attachments': []}]})
"#;

/// Archives it.
pub const MAIL_GOLDEN: &str = r#"
s = go()
for m in s['messages']:
    if m['id'] == 'w1':
        m['folder'] = 'archive'
post('set_current', s)
"#;

/// A flawed reward: credit for any archived message. An agent doing nothing on the app's default
/// mailbox (which has archived mail) gets it: the noop probe must say so on every backend.
pub const MAIL_REWARD: &str = r#"
archived = [m for m in (go().get('messages') or []) if m.get('folder') == 'archive']
a = len(archived) > 0
print(('PASS' if a else 'FAIL') + ': a message was archived')
b = a and all(m.get('subject') for m in archived)
print(('PASS' if b else 'FAIL') + ': the archived messages have subjects')
print('REWARD: ' + str((0.5 if a else 0.0) + (0.5 if b else 0.0)))
"#;

/// The Hub gmail mock's own shape (`user`, `emails`), which is not the built-in mail app's.
pub const GMAIL_HUB_SETUP: &str = r#"
post('set', {'user': {'userId': 'u1', 'username': 'Demo User', 'email': 'demo@example.com'},
             'emails': [{'id': 'email_1', 'threadId': 't1', 'folder': 'inbox', 'subject': 'Digest',
                         'read': False, 'labels': []}]})
"#;

/// Archives the digest the Hub way (`all-mail`).
pub const GMAIL_HUB_GOLDEN: &str = r#"
s = go()
s['emails'][0]['folder'] = 'all-mail'
post('set_current', s)
"#;

/// Credits the digest archived.
pub const GMAIL_HUB_REWARD: &str = r#"
emails = {e['id']: e for e in (go().get('emails') or [])}
a = emails.get('email_1', {}).get('folder') == 'all-mail'
print(('PASS' if a else 'FAIL') + ': digest archived')
b = a and emails['email_1'].get('read') is False
print(('PASS' if b else 'FAIL') + ': digest left unread')
print('REWARD: ' + str((0.5 if a else 0.0) + (0.5 if b else 0.0)))
"#;
