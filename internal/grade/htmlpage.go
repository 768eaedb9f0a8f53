package grade

// reportScript draws the class table and the student × case grid from the page's data block
// (classData): only the rows in view are in the document, between two spacers of the height of the
// rows that are not (a class of up to virtualAll students is drawn whole, so that the browser's own
// search finds every name; past that, Ctrl-F or ⌘F goes to the page's filter, which searches every
// row, and a second press to the browser's own search). It sorts the class by a click on a column and filters it by a word, a
// status or the advice on the code, all on the data; opens a grid cell's failure; and loads each
// student's details from details/st-N.js beside the page when they are asked for (a script
// element: it works from file:// as from a server, where fetch would not), and the course's chart
// script from details/ (ChartFiles) the first time a student's details hold a chart; plain
// JavaScript, nothing loaded from elsewhere.
const reportScript = `(function(){
var t=document.getElementById('class'),data=document.getElementById('classdata');if(!t||!data)return;
var D=JSON.parse(data.textContent),R=D.rows,N=R.length,body=t.tBodies[0],ALL=VIRTUALALL;
var q=document.getElementById('filter'),s=document.getElementById('statusfilter'),a=document.getElementById('advicefilter');
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e;}
function sp(e){e.appendChild(document.createTextNode(' '));}
function labels(r){return r[11]?r[11].split(' ').map(function(k){return D.rule[k]||k;}).join(', '):'';}
function notes(r){var out=r[12]?[r[12]]:[];r[13].forEach(function(k){out.push(D.notes[k]);});return out;}
function verdict(r){var m=D.mark[r[8]];return (m?m+' ':'')+(D.verdict[r[8]]||'');}
function texts(r){return [r[0]+(r[1]?' '+r[1]:'')+' '+D.feedback,D.status[r[3]]||r[3],r[5],r[6]+'/'+r[7],verdict(r),
r[9]+(r[10]?' ('+D.langFrom[r[10]]+')':''),labels(r),notes(r).join('')];}
function virtual(tb,cols,count,make,seen){var h=0,from=-1,to=-1,pads=[0,1].map(function(){
var tr=el('tr','pad'),td=el('td');tr.setAttribute('aria-hidden','true');td.colSpan=cols;tr.appendChild(td);tb.appendChild(tr);return tr;});
function rows(a,b){while(pads[0].nextSibling!==pads[1])tb.removeChild(pads[0].nextSibling);
var f=document.createDocumentFragment();for(var k=a;k<b;k++)f.appendChild(make(k));tb.insertBefore(f,pads[1]);
from=a;to=b;pads[0].firstChild.style.height=a*h+'px';pads[1].firstChild.style.height=(count()-b)*h+'px';}
function draw(force){var n=count(),a=0,b=n;
if(n>ALL){if(!h){rows(0,1);h=pads[0].nextSibling.getBoundingClientRect().height||20;}
var v=seen();a=Math.max(0,Math.min(n,Math.floor(v[0]/h/10)*10)-30);b=Math.min(n,Math.max(a,Math.ceil(v[1]/h/10)*10)+30);}
if(force||a!==from||b!==to)rows(a,b);}
return {draw:draw,measure:function(){h=0;draw(true);}};}
var order=[],view=[],hay=null,cur=-1;for(var i=0;i<N;i++)order.push(i);view=order.slice();
function classRow(k){var i=view[k],r=R[i],tr=el('tr'),td=el('td'),l=el('a',null,r[0]);
tr.setAttribute('data-s',r[3]);if(r[11])tr.setAttribute('data-a',r[11]);tr.setAttribute('aria-rowindex',k+2);
l.href='#st-'+i;l.title=r[0];if(i===cur)tr.className='open';td.appendChild(l);if(r[1]){sp(td);td.appendChild(el('span','muted',r[1]));}
sp(td);l=el('a','muted',D.feedback);l.href='feedback/'+encodeURIComponent(r[2]||r[0]+'.md');td.appendChild(l);tr.appendChild(td);
tr.appendChild(el('td','st-'+r[3],D.status[r[3]]||r[3]));
td=el('td','num',r[5]);td.setAttribute('data-v',r[4]);tr.appendChild(td);
td=el('td','num',r[6]+'/'+r[7]);td.setAttribute('data-v',r[6]);tr.appendChild(td);
var m=D.mark[r[8]];td=el('td',m?'v-bad':null);if(m){td.appendChild(el('span','mark',m));sp(td);}
td.appendChild(document.createTextNode(D.verdict[r[8]]||''));tr.appendChild(td);
td=el('td',null,r[9]);if(r[10]){sp(td);td.appendChild(el('span','muted','('+D.langFrom[r[10]]+')'));}tr.appendChild(td);
tr.appendChild(el('td',null,labels(r)));td=el('td');notes(r).forEach(function(n){td.appendChild(el('span','note',n));});tr.appendChild(td);
return tr;}
var cls=virtual(body,t.tHead.rows[0].cells.length,function(){return view.length;},classRow,
function(){var b=body.getBoundingClientRect();return [-b.top,window.innerHeight-b.top];});
function hasRule(r,v){var d=r[11];if(v==='any')return d!=='';if(v==='none')return d==='';return (' '+d+' ').indexOf(' '+v+' ')>=0;}
function apply(){var v=q.value.toLowerCase(),st=s.value,av=a?a.value:'';
if(v&&!hay)hay=R.map(function(r){return texts(r).join('\n').toLowerCase();});
view=order.filter(function(i){var r=R[i];return (!v||hay[i].indexOf(v)>=0)&&(!st||r[3]===st)&&(!av||hasRule(r,av));});
t.setAttribute('aria-rowcount',view.length+1);document.getElementById('shown').textContent=view.length;cls.draw(true);}
q.addEventListener('input',apply);s.addEventListener('change',apply);if(a)a.addEventListener('change',apply);
document.addEventListener('keydown',function(e){if(N>ALL&&(e.ctrlKey||e.metaKey)&&!e.altKey&&(e.key==='f'||e.key==='F')&&document.activeElement!==q){e.preventDefault();q.focus();q.select();}});
var ths=t.tHead.rows[0].cells,coll=new Intl.Collator(document.documentElement.lang);
Array.prototype.forEach.call(ths,function(th,c){th.addEventListener('click',function(){
var dir=th.getAttribute('data-dir')==='asc'?'desc':'asc';
Array.prototype.forEach.call(ths,function(h){h.removeAttribute('data-dir');h.removeAttribute('aria-sort');});
th.setAttribute('data-dir',dir);th.setAttribute('aria-sort',dir==='asc'?'ascending':'descending');
var num=th.getAttribute('data-type')==='num',key=R.map(function(r){return num?(c===2?r[4]:r[6]):texts(r)[c];});
order.sort(function(x,y){var d=num?key[x]-key[y]:coll.compare(key[x],key[y]);return dir==='asc'?d:-d;});apply();});});
var grid=document.getElementById('grid'),wrap=grid&&grid.parentElement,gbody=grid&&grid.tBodies[0],grd=null;
function gridRow(i){var r=R[i],tr=el('tr'),c=r[14],ex={};tr.setAttribute('data-i',i);tr.setAttribute('aria-rowindex',i+2);
var th=el('th',null,r[0]);th.scope='row';th.title=r[0];if(i===cur)tr.className='open';tr.appendChild(th);for(var j=0;j<r[15].length;j+=2)ex[r[15][j]]=r[15][j+1];
for(var k=0;k<c.length;k++){var td=el('td',c[k],D.cell[c[k]]);if(ex[k]!=null)td.setAttribute('data-c',ex[k]);tr.appendChild(td);}return tr;}
if(grid){grd=virtual(gbody,grid.tHead.rows[0].cells.length,function(){return N;},gridRow,
function(){var w=wrap.getBoundingClientRect(),b=gbody.getBoundingClientRect();return [w.top-b.top,w.bottom-b.top];});
grid.addEventListener('click',function(ev){var td=ev.target.closest('td'),tr=td&&td.parentElement;
if(!td||!tr.hasAttribute('data-i')||td.className==='p'||td.className==='n')return;
var k=td.getAttribute('data-c')||String(td.cellIndex-1);location.hash='st-'+tr.getAttribute('data-i')+'-c-'+k;});}
function names(){if(!grid||!N)return;var th=grid.tHead.rows[0].cells[0],cv=document.createElement('canvas').getContext('2d'),w=0;
var f=gbody.querySelector('th');if(!f)return;var cs=getComputedStyle(f);cv.font=cs.font;
for(var i=0;i<N;i++)w=Math.max(w,cv.measureText(R[i][0]).width);
th.style.minWidth=Math.ceil(Math.min(w,parseFloat(cs.maxWidth)||w))+'px';}
function draw(){cls.draw(false);if(grd)grd.draw(false);}
var asked=false;function soon(){if(!asked){asked=true;requestAnimationFrame(function(){asked=false;draw();});}}
window.addEventListener('scroll',soon,{passive:true});if(wrap)wrap.addEventListener('scroll',soon,{passive:true});
window.addEventListener('resize',function(){cls.measure();if(grd)grd.measure();});
window.addEventListener('beforeprint',function(){ALL=Infinity;cls.draw(true);if(grd)grd.draw(true);});
window.addEventListener('afterprint',function(){ALL=VIRTUALALL;cls.measure();if(grd)grd.measure();});
t.setAttribute('aria-rowcount',N+1);if(grid)grid.setAttribute('aria-rowcount',N+1);
cls.draw(true);if(grd){grd.draw(true);names();}
var panel=document.getElementById('detail'),inner=document.getElementById('detailbody'),loaded={},want=-1,scripts={};
window.reportDetail=function(i,html){loaded[i]=html;if(i===want)show(i);};
function show(i){inner.innerHTML=loaded[i];panel.hidden=false;charts();var id=decodeURIComponent(location.hash.slice(1));var e=document.getElementById(id);
if(e&&panel.contains(e)){e.scrollIntoView({block:'start'});}else{panel.scrollTop=0;}}
var chartFiles=[CHARTFILES],chartsAsked=false;
function charts(){if(!inner.querySelector('figure.chart'))return;if(window.workbookCharts){window.workbookCharts.draw(inner);return;}
if(chartsAsked)return;chartsAsked=true;
(function next(k){if(k===chartFiles.length){if(window.workbookCharts)window.workbookCharts.draw(inner);return;}
var sc=document.createElement('script');sc.src='details/'+chartFiles[k];sc.onload=function(){next(k+1);};sc.onerror=function(){chartsAsked=false;};document.head.appendChild(sc);})(0);}
function mark(i){if(cur===i)return;cur=i;cls.draw(true);if(grd)grd.draw(true);}
function load(i){want=i;mark(i);if(loaded[i]!=null){show(i);return;}
inner.textContent=panel.getAttribute('data-loading');panel.hidden=false;if(scripts[i])return;
var sc=document.createElement('script');sc.src='details/st-'+i+'.js';scripts[i]=sc;
sc.onerror=function(){delete scripts[i];if(want===i)inner.textContent=panel.getAttribute('data-missing').replace('%s','details/st-'+i+'.js');};
document.head.appendChild(sc);}
function open(){var m=/^#st-(\d+)(-c-\d+)?$/.exec(location.hash);if(m){load(parseInt(m[1],10));return;}
if(location.hash){var e=document.getElementById(decodeURIComponent(location.hash.slice(1)));for(var p=e;p;p=p.parentElement){if(p.tagName==='DETAILS')p.open=true;}if(e)e.scrollIntoView();}}
document.getElementById('close').addEventListener('click',function(){panel.hidden=true;want=-1;mark(-1);history.replaceState(null,'',location.pathname+location.search);});
document.addEventListener('keydown',function(ev){if(ev.key==='Escape'&&!panel.hidden)document.getElementById('close').click();});
window.addEventListener('hashchange',open);open();
})();`

// htmlPage is report.html: the class table, the pass rate of each case, the student × case grid,
// the shared wrong transcripts and the copies. The table's and the grid's rows, one line a student,
// are in the data block (classData) and drawn by reportScript as they come into view, so that a
// class of thousands stays small and quick to open. A student's source, failures and advice are in
// details/st-N.js (detailPage), shown in a panel beside the page.
const htmlPage = `<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{T "grade_html_title" "Title" .Title "Name" .Rep.Exercise}}</title>
<style>
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:76rem;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
table{border-collapse:collapse;width:100%}th,td{padding:.2rem .5rem;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#f6f6f6}td.num{text-align:right;font-variant-numeric:tabular-nums}
.st-pass{color:#17692c;font-weight:600}.st-fail{color:#a4410e;font-weight:600}.st-error,.st-tool_error{color:#b00020;font-weight:600}.st-unchanged{color:#6e5600;font-weight:600}
.bar{background:#eee;height:.7rem;width:10rem;display:inline-block;vertical-align:middle}.bar span{display:block;height:100%;background:#3a7bd5}
.note{background:#fff3cd;border-radius:.2rem;padding:0 .3rem;margin-right:.3rem;white-space:nowrap}
.tag{background:#e8eefc;border-radius:.2rem;padding:0 .3rem;margin-right:.3rem;white-space:nowrap}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;font-size:13px;max-width:100%;box-sizing:border-box}.muted,.m{color:#666}
details{margin:.3rem 0}summary{cursor:pointer}
.filters input{font:inherit;padding:.2rem .4rem;width:16rem}.filters select{font:inherit;max-width:16rem}
#class{table-layout:fixed}#class th,#class td{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#class thead th{position:sticky;top:0;z-index:1;cursor:pointer}#class th[data-dir=asc]::after{content:" ▲"}#class th[data-dir=desc]::after{content:" ▼"}
.v-bad{color:#b00020}.mark{background:#b00020;color:#fff;border-radius:.2rem;padding:0 .3rem;font-size:.85em;font-weight:600}
.gridwrap{overflow:auto;max-height:75vh;border:1px solid #ddd}
tr.pad td{padding:0;border:0}#class tr.open td,.grid tr.open th{background:#fff3cd}#class,.grid{overflow-anchor:none}
.grid{width:auto;border-collapse:separate;border-spacing:0}.grid td,.grid th{padding:0 .3rem;text-align:center;font-size:13px;line-height:1.5rem;white-space:nowrap;border-bottom:1px solid #eee}
.grid thead th{position:sticky;top:0;z-index:2;background:#f6f6f6}.grid tbody th{position:sticky;left:0;z-index:1;background:#fff;text-align:left;font-weight:normal;max-width:16rem;overflow:hidden;text-overflow:ellipsis}
.grid thead th:first-child{left:0;z-index:3}
.grid .p{background:#e6f4ea}.grid .f{background:#fde7e9;cursor:pointer}.grid .t,.grid .c,.grid .o,.grid .x{background:#ffd8a8;cursor:pointer}.grid .n{color:#bbb}
#detail{position:fixed;top:0;right:0;bottom:0;width:min(72rem,100vw);box-sizing:border-box;overflow:auto;background:#fff;box-shadow:-4px 0 16px rgba(0,0,0,.2);padding:1rem 1.2rem;z-index:10}
#close{position:sticky;top:0;float:right;font:inherit;cursor:pointer}
.sbs{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:.8rem}.sbs pre{font-size:12px}
.src{max-height:calc(100vh - 12rem)}.fail{border-left:3px solid #b00020;padding-left:.5rem;margin:.4rem 0}
@media (max-width:50rem){.sbs{grid-template-columns:minmax(0,1fr)}}
mark{background:#ffe08a}.ln{display:inline-block;width:2.5em;color:#999;user-select:none}
:root{--fg:#1d1d1f;--muted:#666;--faint:#8c959f;--line:#ddd;--panel:#fff;--accent:#2f6f4f;--link:#0b5cad;--ok:#1a7f37;--bad:#c4312b;--warn:#9a6700}
.chart{margin:.6rem 0;padding:.5rem .7rem;border:1px solid #ddd;border-radius:6px}.chart figcaption{font-weight:600}.chart-desc{color:#666;font-size:13px;margin:.2rem 0}
.chart-box{position:relative;height:18rem}.scenario-first-over{color:#9a6700;font-weight:600;margin:.2rem 0}
.scenario-figures{width:auto;margin:.4rem 0}.scenario-figures caption{text-align:left;font-weight:600}.scenario-figures td{text-align:right}
.scenario-figures tr.bad td:last-child{color:#b00020}.chart-table-scroll{max-height:16rem;overflow:auto}.chart-table td{text-align:right}
@media (prefers-color-scheme: dark){pre.src{background:#161b22;color:#e6edf3}}
{{.CodeCSS}}
</style>
</head>
<body>
<h1>{{T "grade_html_title" "Title" .Title "Name" .Rep.Exercise}}</h1>
<p>{{N "grade_html_summary" .Rep.Summary.Students "Pass" .Rep.Summary.Pass "Fail" .Rep.Summary.Fail "Error" .Rep.Summary.Error "Mean" (score .Rep.Summary.MeanScore)}}{{if .Rep.Summary.Unchanged}} {{N "grade_unchanged" .Rep.Summary.Unchanged}}{{end}}{{if .Rep.Shard}} {{T "grade_html_shard" "Shard" .Rep.Shard}}{{end}}</p>
{{if .Rep.ForcedLang}}<p><span class="note">{{T "grade_html_forced_lang" "Lang" .Rep.ForcedLang}}</span></p>
{{end}}
<h2>{{T "grade_html_class"}}</h2>
<p class="filters"><input id="filter" type="search" placeholder="{{T "grade_html_filter"}}" aria-label="{{T "grade_html_filter"}}">
<select id="statusfilter" aria-label="{{T "grade_html_status"}}"><option value="">{{T "grade_html_all_statuses"}}</option>{{range $s := statuses}}<option value="{{$s}}">{{status $s}}</option>{{end}}</select>
<select id="advicefilter" aria-label="{{T "vet_html_filter"}}"><option value="">{{T "vet_html_all"}}</option><option value="any">{{T "vet_html_any"}}</option><option value="none">{{T "vet_html_none"}}</option>{{range .Rules}}<option value="{{.}}">{{rule .}}</option>{{end}}</select>
<span class="muted">{{T "grade_html_shown"}} <span id="shown">{{len .Rep.Students}}</span></span></p>
<p class="muted">{{T "vet_html_intro"}}</p>
<table id="class" aria-rowcount="{{inc (len .Rep.Students)}}">
<colgroup><col style="width:19%"><col style="width:10%"><col style="width:6%"><col style="width:6%"><col style="width:13%"><col style="width:7%"><col style="width:16%"><col></colgroup>
<thead><tr title="{{T "grade_html_sort"}}" aria-rowindex="1"><th>{{T "grade_html_student"}}</th><th>{{T "grade_html_status"}}</th><th data-type="num">{{T "grade_html_score"}}</th><th data-type="num">{{T "grade_html_passed"}}</th><th>{{T "grade_html_verdict"}}</th><th>{{T "grade_html_lang"}}</th><th>{{T "vet_html_column"}}</th><th>{{T "grade_html_notes"}}</th></tr></thead>
<tbody></tbody></table>
<noscript><p class="note">{{T "page_noscript"}}</p></noscript>

<h2>{{T "grade_html_cases"}}</h2>
<table>
<tr><th>{{T "grade_html_case"}}</th><th>{{T "grade_html_case_title"}}</th><th>{{T "grade_html_kind"}}</th><th>{{T "grade_html_passed"}}</th><th></th></tr>
{{range .Rep.Cases}}<tr><td>{{.Name}}</td><td>{{caseTitle .}}</td><td>{{if .Visible}}{{T "grade_html_visible"}}{{else if eq .Source "tests"}}{{T "grade_html_instructor"}}{{else}}{{T "grade_html_hidden"}}{{end}}</td><td class="num">{{.Passed}}/{{.Ran}} ({{pct .Passed .Ran}})</td><td><span class="bar"><span style="{{width .Passed .Ran}}"></span></span></td></tr>
{{end}}{{range .Drawn}}<tr><td>{{.Name}}</td><td><code>{{.Args}}</code></td><td>{{T "grade_html_drawn"}}</td><td class="num">{{.Passed}}/{{.Ran}} ({{pct .Passed .Ran}})</td><td><span class="bar"><span style="{{width .Passed .Ran}}"></span></span></td></tr>
{{end}}</table>
{{if .Drawn}}<p class="muted">{{T "grade_html_seed" "Seed" .Rep.Seed}}</p>{{end}}

<h2>{{T "grade_html_grid"}}</h2>
<p class="muted">{{T "grade_html_grid_intro"}} {{T "page_legend"}}{{range .Legend}} {{cell .}} {{cellText .}};{{end}}</p>
<div class="gridwrap"><table class="grid" id="grid" aria-rowcount="{{inc (len .Rep.Students)}}">
<thead><tr aria-rowindex="1"><th>{{T "grade_html_student"}}</th>{{range .Grid.Columns}}<th title="{{.Title}}">{{.Name}}</th>{{end}}</tr></thead>
<tbody></tbody></table></div>

<h2>{{T "grade_html_wrong"}}</h2>
{{if .Rep.Wrong}}<p class="muted">{{T "grade_html_wrong_intro"}}</p>
{{range .Rep.Wrong}}{{$c := caseByName .Case}}<details>
<summary><strong>{{N "grade_html_wrong_count" (len .Students)}}</strong> — {{.Case}}{{$t := caseTitle $c}}{{if ne $t .Case}}: {{$t}}{{end}}{{if .Diff}} — {{T "grade_html_wrong_line" "Line" .Diff.Line}}{{end}}</summary>
<p>{{names .Students}}</p>
{{if .Diff}}<pre>{{T "want_label"}} {{visible .Diff.Want}}
{{T "got_label"}} {{visible .Diff.Got}}</pre>{{end}}
<p>{{T "grade_html_got"}}</p><pre>{{.Got}}</pre>
<p>{{T "grade_html_want"}}</p><pre>{{.Want}}</pre>
</details>
{{end}}{{else}}<p class="muted">{{T "grade_html_wrong_none"}}</p>{{end}}

<h2>{{T "grade_html_copies"}}</h2>
{{if .Rep.Copies}}<p class="muted">{{T "grade_html_copies_intro"}}</p>
<ol>{{range .Rep.Copies}}<li>{{names .Students}}{{if .Solution}} — <strong>{{T "grade_html_solution" "Lang" .Solution}}</strong>{{end}}{{if .Exact}} — <strong>{{T "grade_html_exact"}}</strong>{{end}} <span class="muted">({{N "grade_html_tokens" .Tokens}})</span></li>
{{end}}</ol>{{else}}<p class="muted">{{T "grade_html_copies_none"}}</p>{{end}}
{{if .Pairs}}<h3>{{T "grade_html_pairs"}}</h3>
<p class="muted">{{T "grade_html_pairs_intro"}}</p>
{{range .Pairs}}<details>
<summary><strong>{{.A}} — {{.B}}</strong>: {{pct .Permille 1000}} <span class="muted">({{N "grade_html_pair_shared" .Shared}})</span></summary>
<div class="sbs"><div><p>{{.A}}</p><pre>{{range .Left}}<span class="ln">{{.N}}</span>{{if .Shared}}<mark>{{.Text}}</mark>{{else}}{{.Text}}{{end}}
{{end}}</pre></div><div><p>{{.B}}</p><pre>{{range .Right}}<span class="ln">{{.N}}</span>{{if .Shared}}<mark>{{.Text}}</mark>{{else}}{{.Text}}{{end}}
{{end}}</pre></div></div>
</details>
{{end}}{{end}}

<h2>{{T "grade_html_by_heart"}}</h2>
{{if .Rep.ByHeart}}<p class="muted">{{T "grade_html_by_heart_intro"}}</p>
<p>{{names .Rep.ByHeart}}</p>{{else}}<p class="muted">{{T "grade_html_by_heart_none"}}</p>{{end}}

{{if .Isolation}}<p class="muted">{{.Isolation}}</p>
{{end}}<p class="muted">{{T "grade_html_footer" "Config" .Rep.Config}}</p>
<aside id="detail" hidden data-loading="{{T "page_detail_loading"}}" data-missing="{{T "page_detail_missing" "File" "%s"}}"><button id="close" type="button">{{T "page_close"}}</button><div id="detailbody"></div></aside>
<script type="application/json" id="classdata">{{.Data}}</script>
<script>{{.Script}}</script>
</body>
</html>
`

// detailPage is one student's details, written into details/st-N.js and shown in the page's panel:
// the row's words again, the feedback file, the advice on the code, the source beside the failures,
// and a scenario case's figures against their limits and its chart (report.ScenarioFigure), a failed
// one's with its failure and a passed one's below the failures, which the page draws with the
// course's charts.js, kept beside the details (ChartFiles).
const detailPage = `<h2 id="st-{{.I}}">{{.St.Name}} — <span class="{{status_class .St.Status}}">{{status .St.Status}}</span>, {{score .St.Score}}{{with mark .St.Result.Verdict}} <span class="mark">{{.}}</span>{{end}} {{verdict .St.Result.Verdict}}</h2>
<p>{{if and .St.ID (ne .St.ID .St.Name)}}<span class="muted">{{.St.ID}}</span> · {{end}}{{.St.Lang}} · {{.St.Passed}}/{{.St.Total}} · <a href="{{href (feedback .St.Name)}}">{{T "grade_html_feedback_file"}}</a>
{{if .St.Late}}<span class="note">{{T "grade_html_late"}}{{if .St.Penalty}} −{{score .St.Penalty}}{{end}}</span>{{end}}{{range .Notes}}<span class="note">{{.}}</span>{{end}}</p>
{{with .St.Result.Advice}}<div class="advice"><p><strong>{{T "vet_advice_head"}}</strong></p><ul>{{range .}}<li><code>{{.File}}:{{.Line}}</code> <span class="tag">{{rule .Rule}}</span> {{adviceText .}}</li>
{{end}}</ul></div>{{end}}
<div class="sbs"><div><p>{{T "grade_html_source"}}{{if .St.Program}} <code>{{.St.Program}}</code>{{end}}</p>
{{range .St.Source}}<p class="muted"><code>{{.Name}}</code></p><pre class="src chroma">{{code .}}</pre>
{{else}}<p class="muted">{{T "grade_html_no_source"}}</p>{{end}}</div>
<div><p>{{T "grade_html_failures"}}</p>{{if .St.Result.BuildLog}}<pre>{{buildLog .St.Result}}</pre>{{end}}
{{range .Hints}}<p class="hint"><strong>!</strong> {{.}}</p>
{{end}}{{range .Failures}}{{$c := .C}}<div id="st-{{$.I}}-c-{{.J}}" class="fail"><p><strong>{{caseLabel $c.Name $c.Title}}</strong> — {{caseText $c}}{{if $c.Args}} <code>{{args $c.Args}}</code>{{end}}</p>
{{if $c.Diff}}<pre>{{T "want_label"}} {{visible $c.Diff.Want}}
{{T "got_label"}} {{visible $c.Diff.Got}}</pre>{{else if $c.Metrics}}<pre>{{scenario $c}}</pre>{{figure $c $.I .J}}{{else if $c.Got}}<pre>{{$c.Got}}</pre>{{end}}
{{with .Same}}<p>{{N "same_failure_in" (len .)}}</p><ul>{{range .}}<li id="st-{{$.I}}-c-{{.J}}">{{caseLabel .Name .Title}}{{if .Args}} <code>{{.Args}}</code>{{end}}</li>{{end}}</ul>
{{end}}</div>
{{end}}{{with .Passed}}<p>{{T "grade_html_scenario_passed"}}</p>
{{range .}}{{$c := .C}}<div id="st-{{$.I}}-c-{{.J}}" class="pass"><p><strong>{{caseLabel $c.Name $c.Title}}</strong> — {{caseText $c}}{{if $c.Args}} <code>{{args $c.Args}}</code>{{end}}</p>
<pre>{{scenario $c}}</pre>{{figure $c $.I .J}}</div>
{{end}}{{end}}</div></div>
`
