// workbook serve: the page's content, editors, runs, quizzes, checks and hints. Plain JavaScript, no
// libraries; every request goes to the workbook server that sent this page, with its session token.
(function () {
  'use strict';

  document.documentElement.classList.add('js');

  var lang = meta('workbook-lang');
  var messages = {};
  var given = tokenInAddress(); // the token the address came with, if any
  var token = load('token') || ''; // the token every request sends

  function meta(name) {
    var m = document.querySelector('meta[name="' + name + '"]');
    return m ? m.getAttribute('content') : '';
  }

  function msg(id) {
    return messages[id] || id;
  }

  function store(key, value) {
    try {
      if (value === null) {
        localStorage.removeItem('workbook:' + key);
      } else {
        localStorage.setItem('workbook:' + key, value);
      }
    } catch (e) { /* private mode or full: edits live only on the page */ }
  }

  function load(key) {
    try {
      return localStorage.getItem('workbook:' + key);
    } catch (e) {
      return null;
    }
  }

  // The session token. No page and no cookie carries it: the address workbook serve prints (and the
  // file that serve --open hands the browser) has it in its fragment, #token=…, which no request
  // sends. The page takes it from there and drops it from the address and the history; once the
  // server has taken it (loadPage), the page keeps it in this origin's storage, which is this port's
  // alone (a cookie would go to every port of the host), for the other pages and tabs of the course.
  // Every request sends it in a header.
  // The address may name, after the token, where on the page to go (#token=…&at=chart-2, as
  // workbook serve --open PAGE gives it): that anchor takes the token's place in the address.
  function tokenInAddress() {
    var m = /^#token=([0-9a-f]+)(?:&at=([^&#]+))?$/.exec(location.hash);
    if (!m) return '';
    history.replaceState(history.state, '', location.pathname + location.search + (m[2] ? '#' + m[2] : ''));
    return m[1];
  }

  function post(url, body) {
    body.lang = lang;
    return fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Workbook-Token': token },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store'
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) {
          var err = new Error(data.error || (msg('error') + ' ' + r.status));
          err.status = r.status;
          throw err;
        }
        return data;
      });
    }, function () {
      throw new Error(msg('offline'));
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  // ---- Go highlighting, with the classes chroma gives on the server (its Go lexer's rules) ----

  var builtinsCalled = 'uint8|uint16|uint32|uint64|uint|int8|int16|int32|int64|int|float32|float64|float|complex64|complex128|byte|rune|string|bool|error|uintptr|println|print|panic|recover|close|complex|real|imag|len|cap|append|copy|delete|new|make|clear|min|max';
  var types = 'uint8|uint16|uint32|uint64|uint|int8|int16|int32|int64|int|float32|float64|float|complex64|complex128|byte|rune|string|bool|error|uintptr|any';
  var rules = [
    [/\s+/y, null],
    [/\/\/[^\s][^\n\r]*/y, 'cp'],
    [/\/\/\s+[^\n\r]*/y, 'c1'],
    [/\/(\\\n)?[*][\s\S]*?[*](\\\n)?\//y, 'cm'],
    [/(import|package)\b/y, 'kn'],
    [/(var|func|struct|map|chan|type|interface|const)\b/y, 'kd'],
    [/(fallthrough|continue|default|select|return|switch|break|range|defer|else|goto|case|for|go|if)\b/y, 'k'],
    [/(true|false|iota|nil)\b/y, 'kc'],
    [new RegExp('(' + builtinsCalled + ')\\b(\\()', 'y'), ['nb', 'p']],
    [new RegExp('(' + types + ')\\b', 'y'), 'kt'],
    [/\d+i/y, 'm'],
    [/\d+\.\d*([Ee][-+]\d+)?i/y, 'm'],
    [/\.\d+([Ee][-+]\d+)?i/y, 'm'],
    [/\d+[Ee][-+]\d+i/y, 'm'],
    [/\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)/y, 'mf'],
    [/\.\d+([eE][+\-]?\d+)?/y, 'mf'],
    [/0[0-7]+/y, 'mo'],
    [/0[xX][0-9a-fA-F_]+/y, 'mh'],
    [/0b[01_]+/y, 'mb'],
    [/(0|[1-9][0-9_]*)/y, 'mi'],
    [/'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'/yu, 'sc'],
    [/`[^`]*`/y, 's'],
    [/"(\\\\|\\"|[^"])*"/y, 's'],
    [/(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|\/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*\/%&])/y, 'o'],
    [/([a-zA-Z_][\p{L}\p{N}_]*)(\s*)(\()/yu, ['nf', null, 'p']],
    [/[|^<>=!()\[\]{}.,;:~]/y, 'p'],
    [/[\p{L}_][\p{L}\p{N}_]*/yu, 'nx']
  ];

  function esc(s) {
    return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  function span(cls, text) {
    if (!text) return '';
    return cls ? '<span class="' + cls + '">' + esc(text) + '</span>' : esc(text);
  }

  function highlightGo(code) {
    var out = '';
    var i = 0;
    outer:
    while (i < code.length) {
      for (var r = 0; r < rules.length; r++) {
        var re = rules[r][0];
        re.lastIndex = i;
        var m = re.exec(code);
        if (!m || m[0] === '') continue;
        var cls = rules[r][1];
        if (Array.isArray(cls)) {
          for (var g = 0; g < cls.length; g++) out += span(cls[g], m[g + 1]);
        } else {
          out += span(cls, m[0]);
        }
        i += m[0].length;
        continue outer;
      }
      out += span('err', code[i]);
      i++;
    }
    return out;
  }

  // ---- Editors: highlighted code under a transparent textarea ----

  function Editor(root, onChange) {
    this.root = root;
    this.ta = root.querySelector('textarea');
    this.pre = root.querySelector('pre.code');
    this.gutter = root.querySelector('.gutter');
    this.lines = -1;
    var self = this;
    this.ta.addEventListener('input', function () {
      self.refresh();
      if (onChange) onChange();
    });
    this.ta.addEventListener('keydown', function (e) { self.key(e); });
  }

  Editor.prototype.value = function () {
    return this.ta.value;
  };

  Editor.prototype.set = function (text) {
    this.ta.value = text;
    this.refresh();
  };

  Editor.prototype.refresh = function () {
    var text = this.ta.value;
    this.pre.innerHTML = highlightGo(text) + '\n';
    var n = text.replace(/\n$/, '').split('\n').length;
    if (n !== this.lines) {
      var nums = '';
      for (var k = 1; k <= n; k++) nums += k + '\n';
      this.gutter.textContent = nums;
      this.lines = n;
    }
  };

  Editor.prototype.insert = function (text) {
    var ta = this.ta;
    ta.focus();
    if (!document.execCommand || !document.execCommand('insertText', false, text)) {
      ta.setRangeText(text, ta.selectionStart, ta.selectionEnd, 'end');
      ta.dispatchEvent(new Event('input'));
    }
  };

  Editor.prototype.key = function (e) {
    var ta = this.ta;
    if (e.key === 'Tab' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      if (e.shiftKey) return; // let Shift+Tab move the focus out
      e.preventDefault();
      this.insert('\t');
    } else if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.altKey) {
      var before = ta.value.slice(0, ta.selectionStart);
      var line = before.slice(before.lastIndexOf('\n') + 1);
      var indent = line.match(/^[\t ]*/)[0];
      if (/[{(\[]\s*$/.test(line)) indent += '\t';
      e.preventDefault();
      this.insert('\n' + indent);
    } else if (e.key === 'Escape') {
      ta.blur();
    }
  };

  // ---- Lesson snippets ----

  var snippets = [];

  function initSnippets() {
    var layout = document.querySelector('.lesson-layout');
    if (!layout) return;
    var topic = layout.getAttribute('data-topic');
    Array.prototype.forEach.call(document.querySelectorAll('.lesson .snippet'), function (root) {
      var s = {
        root: root,
        block: parseInt(root.getAttribute('data-block'), 10),
        key: 'snippet/' + root.getAttribute('data-key'),
        runBtn: root.querySelector('.run'),
        resetBtn: root.querySelector('.reset'),
        edited: root.querySelector('.snippet-edited'),
        result: root.querySelector('.result')
      };
      s.original = root.querySelector('textarea').defaultValue;
      s.editor = new Editor(root.querySelector('.editor'), function () { changed(s); });
      var saved = load(s.key);
      if (saved !== null && saved !== s.original) {
        s.editor.set(saved);
        mark(s);
      }
      s.runBtn.addEventListener('click', function () { runSnippet(topic, s); });
      s.resetBtn.addEventListener('click', function () {
        s.editor.set(s.original);
        store(s.key, null);
        mark(s);
        s.result.hidden = true;
      });
      s.editor.ta.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          runSnippet(topic, s);
        }
      });
      snippets.push(s);
    });
  }

  function mark(s) {
    var dirty = s.editor.value() !== s.original;
    s.edited.hidden = !dirty;
    s.resetBtn.disabled = !dirty;
    s.root.classList.toggle('edited', dirty);
  }

  var saveTimers = {};

  function changed(s) {
    mark(s);
    clearTimeout(saveTimers[s.key]);
    saveTimers[s.key] = setTimeout(function () {
      var v = s.editor.value();
      store(s.key, v === s.original ? null : v);
    }, 300);
  }

  function runSnippet(topic, s) {
    if (s.busy) return;
    var edits = {};
    snippets.forEach(function (o) {
      if (o.editor.value() !== o.original) edits[o.block] = o.editor.value();
    });
    s.busy = true;
    s.runBtn.disabled = true;
    s.result.hidden = false;
    s.result.innerHTML = '';
    s.result.appendChild(el('div', 'result-status busy', msg('running')));
    var experiment = Object.keys(edits).length > 0;
    post('/api/run', { topic: topic, block: s.block, edits: edits }).then(function (r) {
      showRun(s.result, r, experiment);
    }, function (err) {
      s.result.innerHTML = '';
      s.result.appendChild(el('div', 'result-status bad', err.message));
    }).then(function () {
      s.busy = false;
      s.runBtn.disabled = false;
    });
  }

  function lineMarked(text, n) {
    var pre = el('pre', 'output-text');
    if (!n) {
      pre.textContent = text;
      return pre;
    }
    var lines = text.split('\n');
    lines.forEach(function (line, i) {
      if (i > 0) pre.appendChild(document.createTextNode('\n'));
      if (i === n - 1) {
        pre.appendChild(el('mark', '', line === '' ? ' ' : line));
      } else {
        pre.appendChild(document.createTextNode(line));
      }
    });
    return pre;
  }

  // showRun shows a run's output once. The lesson's own output stands below the snippet already, so
  // a run that gives it is said to, and an edited snippet is an experiment: what it printed, with a
  // neutral word on where it parts from the lesson's output, never a failure.
  function showRun(box, r, experiment) {
    box.innerHTML = '';
    var same = r.want === undefined || r.match;
    if (r.status === 'pass' && (same || experiment)) {
      var line0 = r.diff ? r.diff.line : 0;
      var note = same ? msg(experiment ? 'experiment_same' : 'run_same')
        : msg('experiment_differs').replace('{line}', String(line0));
      box.appendChild(el('div', 'result-status ' + (same && !experiment ? 'ok' : 'note'), (same && !experiment ? '✓ ' : '◦ ') + note));
      box.appendChild(lineMarked(r.stdout.replace(/\n$/, ''), same ? 0 : line0));
      if (r.stderr) box.appendChild(el('pre', 'output-text stderr', r.stderr.replace(/\n$/, '')));
      return;
    }
    var good = r.status === 'pass' && same;
    box.appendChild(el('div', 'result-status ' + (good ? 'ok' : 'bad'), (good ? '✓ ' : '✗ ') + r.message));
    if (r.status === 'build_error') {
      box.appendChild(el('pre', 'output-text build-log', r.build_log));
      return;
    }
    // Side by side while the lines fit; one above the other when they are long.
    var widest = 0;
    (r.stdout + '\n' + (r.want || '')).split('\n').forEach(function (l) { widest = Math.max(widest, l.length); });
    var cols = el('div', 'result-cols' + (r.want === undefined || widest > 44 ? ' single' : ''));
    var mine = el('div', 'col');
    var line = r.diff ? r.diff.line : 0;
    mine.appendChild(el('div', 'col-label', msg('your_output')));
    mine.appendChild(lineMarked(r.stdout.replace(/\n$/, ''), line));
    if (r.stderr) mine.appendChild(el('pre', 'output-text stderr', r.stderr.replace(/\n$/, '')));
    cols.appendChild(mine);
    if (r.want !== undefined) {
      var want = el('div', 'col');
      want.appendChild(el('div', 'col-label', msg('verified_output')));
      want.appendChild(lineMarked(r.want.replace(/\n$/, ''), line));
      cols.appendChild(want);
    }
    box.appendChild(cols);
    if (r.notes && r.notes.length) {
      var ul = el('ul', 'notes');
      r.notes.forEach(function (n) { ul.appendChild(el('li', '', n)); });
      box.appendChild(ul);
    }
  }

  // ---- Quizzes ----

  function initQuizzes() {
    var layout = document.querySelector('.lesson-layout');
    if (!layout) return;
    var topic = layout.getAttribute('data-topic');
    var score = document.querySelector('.quiz-score');
    Array.prototype.forEach.call(document.querySelectorAll('form.quiz'), function (form) {
      var feedback = form.querySelector('.quiz-feedback');
      var button = form.querySelector('button[type=submit]');
      var blank = form.querySelector('input.blank');
      if (blank) {
        var grow = function () { blank.style.width = Math.max(6, blank.value.length + 2) + 'ch'; };
        blank.addEventListener('input', grow);
        grow();
      }
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        var answer;
        if (blank) {
          answer = blank.value;
        } else {
          var checked = form.querySelector('input[name=answer]:checked');
          answer = checked ? checked.value : '';
        }
        if (!answer.trim()) {
          feedback.className = 'quiz-feedback bad';
          feedback.textContent = msg('choose_first');
          return;
        }
        button.disabled = true;
        feedback.className = 'quiz-feedback';
        feedback.textContent = msg('checking');
        post('/api/quiz', { topic: topic, quiz: parseInt(form.getAttribute('data-quiz'), 10), answer: answer }).then(function (r) {
          feedback.className = 'quiz-feedback ' + (r.correct ? 'ok' : 'bad');
          feedback.textContent = (r.correct ? '✓ ' : '✗ ') + r.message;
          form.classList.toggle('solved', r.correct);
          var fix = form.querySelector('.quiz-fix');
          if (r.fix && fix) {
            fix.innerHTML = '';
            fix.appendChild(el('div', 'col-label', msg('fixed_line')));
            var pre = el('pre', 'code chroma');
            pre.innerHTML = r.fix;
            fix.appendChild(pre);
            fix.hidden = false;
          }
          var explain = form.querySelector('.quiz-explain');
          if (explain) {
            // The server's HTML, rendered from the lesson's own Markdown.
            explain.innerHTML = (r.why || '') + (r.explain || '');
            explain.hidden = !r.why && !r.explain;
          }
          if (r.score && score) score.textContent = r.score;
        }, function (err) {
          feedback.className = 'quiz-feedback bad';
          feedback.textContent = err.message;
        }).then(function () {
          button.disabled = false;
        });
      });
    });
  }

  // ---- Exercise page ----

  function initExercise() {
    var page = document.querySelector('.exercise-page');
    if (!page) return;
    var name = page.getAttribute('data-exercise');
    var draft = page.getAttribute('data-draft');
    var hash = page.getAttribute('data-hash');
    var root = page.querySelector('.exercise-editor');
    var saveBtn = root.querySelector('.save');
    var checkBtn = root.querySelector('.check');
    var edited = root.querySelector('.snippet-edited');
    var status = root.querySelector('.save-status');
    var result = root.querySelector('.check-result');
    var badge = document.getElementById('ex-status');
    var saved = root.querySelector('textarea').defaultValue;
    var editor = new Editor(root.querySelector('.editor'), function () {
      dirty();
      if (draft) {
        clearTimeout(editor.timer);
        editor.timer = setTimeout(function () { store(draft, editor.value()); }, 300);
      }
    });
    if (draft) {
      var d = load(draft);
      if (d !== null) editor.set(d);
    }

    function dirty() {
      edited.hidden = !saveBtn || editor.value() === saved;
    }

    function say(text, bad) {
      status.textContent = text;
      status.className = 'save-status' + (bad ? ' bad' : '');
    }

    function save() {
      if (!saveBtn) return Promise.resolve();
      saveBtn.disabled = true;
      var code = editor.value();
      return post('/api/save', { exercise: name, code: code, base: hash }).then(function (r) {
        hash = r.hash;
        saved = code;
        dirty();
        say(r.message);
      }, function (err) {
        say(err.message, true);
      }).then(function () {
        saveBtn.disabled = false;
      });
    }

    function check() {
      if (checkBtn.disabled) return;
      checkBtn.disabled = true;
      var code = editor.value();
      result.hidden = false;
      result.innerHTML = '';
      result.appendChild(el('div', 'verdict', msg('checking')));
      say('');
      post('/api/check', { exercise: name, code: code, base: hash }).then(function (r) {
        if (r.hash) {
          hash = r.hash;
          saved = code;
          dirty();
        }
        result.innerHTML = '';
        var ok = r.verdict === 'pass';
        result.classList.toggle('passed', ok);
        result.appendChild(el('div', 'verdict ' + (ok ? 'ok' : 'bad'), (ok ? '✓ ' : '✗ ') + msg(ok ? 'check_pass' : 'check_fail')));
        if (r.note) result.appendChild(el('p', 'kept-pass', r.note));
        if (ok && r.next && r.next.url) {
          // A pass leads on: the first exercise of the course not passed yet, or the lesson it needs.
          var next = el('a', 'next-exercise', r.next.text + ' →');
          next.href = r.next.url;
          result.appendChild(next);
        } else if (ok && r.next) {
          result.appendChild(el('p', 'next-step', r.next.text));
        }
        var pre = el('pre', 'report');
        pre.innerHTML = r.report;
        result.appendChild(pre);
        if (r.charts) {
          // The charts of the scenario cases (report.ScenarioFigure), drawn by charts.js.
          var charts = el('section', 'scenario-charts');
          charts.innerHTML = r.charts;
          result.appendChild(charts);
          document.dispatchEvent(new CustomEvent('workbook:charts', { detail: charts }));
        }
        if (badge && r.status) {
          badge.textContent = r.status_text;
          badge.className = 'badge status status-' + r.status;
        }
      }, function (err) {
        result.innerHTML = '';
        result.appendChild(el('div', 'verdict bad', err.message));
      }).then(function () {
        checkBtn.disabled = false;
      });
    }

    // Back to the starter, and a kept version back: `workbook reset` and `workbook restore`, with
    // the question they ask first. What the editor holds is sent along and saved before, so that
    // the version kept is what the learner sees.
    var resetBtn = root.querySelector('.reset-starter');
    var restoreBtn = root.querySelector('.restore');

    function offer(o) {
      if (!restoreBtn) return;
      restoreBtn.hidden = !o;
      if (!o) return;
      restoreBtn.textContent = o.label;
      restoreBtn.setAttribute('data-n', o.n);
      restoreBtn.setAttribute('data-confirm', o.confirm);
    }

    function replace(url, btn, body) {
      if (btn.disabled || !window.confirm(btn.getAttribute('data-confirm'))) return;
      btn.disabled = true;
      body.exercise = name;
      body.code = editor.value();
      body.base = hash;
      post(url, body).then(function (r) {
        editor.set(r.code);
        saved = r.code;
        hash = r.hash;
        dirty();
        say(r.message);
        offer(r.restore);
      }, function (err) {
        say(err.message, true);
      }).then(function () {
        btn.disabled = false;
      });
    }

    if (resetBtn) resetBtn.addEventListener('click', function () { replace('/api/reset', resetBtn, {}); });
    if (restoreBtn) {
      restoreBtn.addEventListener('click', function () {
        replace('/api/restore', restoreBtn, { version: parseInt(restoreBtn.getAttribute('data-n'), 10) });
      });
    }

    if (saveBtn) saveBtn.addEventListener('click', save);
    checkBtn.addEventListener('click', check);
    editor.ta.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        check();
      } else if ((e.key === 's' || e.key === 'S') && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        save();
      }
    });
    window.addEventListener('beforeunload', function (e) {
      if (saveBtn && editor.value() !== saved) {
        e.preventDefault();
        e.returnValue = '';
      }
    });

    // Hints, one at a time.
    var next = page.querySelector('.hint-next');
    if (next) {
      var list = page.querySelector('.hint-list');
      var count = page.querySelector('.hint-count');
      var total = parseInt(next.getAttribute('data-total'), 10);
      var hintKey = 'hints/' + name + '/' + lang;
      var showHints = function (r) {
        list.innerHTML = '';
        r.hints.forEach(function (h) {
          var li = el('li', 'hint');
          li.innerHTML = h;
          list.appendChild(li);
        });
        count.textContent = msg('hint_count').replace('{n}', r.hints.length).replace('{total}', r.total);
        next.disabled = r.hints.length >= r.total;
        if (draft) store(hintKey, String(r.hints.length));
      };
      var ask = function (shown) {
        next.disabled = true;
        return post('/api/hint', { exercise: name, shown: shown }).then(showHints, function (err) {
          say(err.message, true);
          next.disabled = false;
        });
      };
      next.addEventListener('click', function () {
        ask(list.children.length).then(function () {
          var last = list.lastElementChild;
          if (last) last.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
        });
      });
      if (draft) {
        var had = parseInt(load(hintKey) || '0', 10);
        if (had > 0 && list.children.length === 0) ask(Math.min(had, total) - 1);
      }
    }
  }

  document.addEventListener('DOMContentLoaded', function () {
    var m = document.getElementById('workbook-messages');
    if (m) {
      try { messages = JSON.parse(m.textContent); } catch (e) { messages = {}; }
    }
    loadPage();
  });

  // The page's address answered with its shell, which holds nothing of the learner's: its content
  // (the learner's program, progress) comes from /api/page, with the token (see shell.go).
  function loadPage() {
    var page = document.getElementById('page');
    var shell = page && page.querySelector('[data-shell]');
    if (!shell) return; // a page with nothing private: "not found"
    var status = shell.querySelector('.page-status');
    var kept = token;
    var refused = function () {
      status.textContent = msg('no_token');
      status.classList.add('bad');
    };
    var ask = function (t) {
      token = t;
      return post('/api/page', { path: location.pathname });
    };
    if (!given && !kept) {
      refused();
      return;
    }
    ask(given || kept).catch(function (err) {
      // Any page may send the browser to an address with a made-up #token=: the token kept stays
      // until one the server takes replaces it.
      if (err.status === 403 && given && kept && kept !== given) return ask(kept);
      throw err;
    }).then(function (r) {
      if (token !== kept) store('token', token);
      page.innerHTML = r.html;
      var footer = document.getElementById('page-footer');
      if (footer) footer.innerHTML = r.footer;
      document.title = r.title + ' · workbook';
      initSnippets();
      initQuizzes();
      initExercise();
      recordOpen();
      document.dispatchEvent(new CustomEvent('workbook:page')); // charts.js draws the charts
      // The address's own #fragment (a heading, a chart) is in the page only now.
      var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) target.scrollIntoView();
    }, function (err) {
      if (err.status === 403) {
        // A token of a server that ran here before: forget it, unless another tab has a newer one.
        if (kept && load('token') === kept) store('token', null);
        token = '';
        refused();
        return;
      }
      status.textContent = err.message;
      status.classList.add('bad');
    });
  }

  // The lesson page itself is a GET, which changes nothing: the opening is recorded here, with a POST
  // that carries the session token.
  function recordOpen() {
    var layout = document.querySelector('.lesson-layout');
    if (!layout) return;
    post('/api/open', { topic: layout.getAttribute('data-topic') }).catch(function () { /* progress only */ });
  }
})();
