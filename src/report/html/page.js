/* global document, navigator, setTimeout */
// The HTML report's own script, inlined in the page (render-html.js). It reads the view from the
// page's JSON block and builds every element with createElement and textContent: names from the
// heap only ever become text, never markup or attributes that load or run anything.
(function () {
  'use strict'
  const SVG = 'http://www.w3.org/2000/svg'
  const view = JSON.parse(document.getElementById('leakdiff-data').textContent)
  const main = document.getElementById('report')

  /**
   * An element with attributes (set as text) and children (strings become text nodes).
   * @param {string} tag
   * @param {Record<string, string> | null} [attributes]
   * @param {...(Node | string | null | undefined | false)} children
   */
  function el (tag, attributes, ...children) {
    const node = document.createElement(tag)
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value)
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue
      node.append(typeof child === 'string' ? document.createTextNode(child) : child)
    }
    return node
  }

  function svg (tag, attributes, text) {
    const node = document.createElementNS(SVG, tag)
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value))
    if (text !== undefined) node.textContent = text
    return node
  }

  function panel (...children) {
    return el('section', { class: 'panel' }, ...children)
  }

  // ---- retainer paths: hops in a row, folded engine hops open on click ----
  function pathList (hops) {
    const list = el('ol', { class: 'path', 'aria-label': 'retainer path from the GC roots' }, el('li', null, el('span', { class: 'hop root' }, '(GC roots)')))
    if (hops.length === 0) {
      list.append(el('li', null, el('span', { class: 'hop root' }, '(not reachable from the roots)')))
      return list
    }
    const lastShown = hops.map((hop) => !hop.folded).lastIndexOf(true)
    hops.forEach((hop, i) => {
      if (hop.folded) {
        const label = hop.text !== '' ? hop.text : `… ${hop.steps.length} ${hop.steps.length === 1 ? 'hop' : 'hops'}`
        const steps = el('ol', null, ...hop.steps.map((step) => el('li', { class: 'mono' }, step)))
        list.append(el('li', null, el('details', { class: 'fold' }, el('summary', { title: 'engine hops: open to see them' }, label), steps)))
      } else {
        list.append(el('li', null, el('span', { class: i === lastShown ? 'hop owner mono' : 'hop mono' }, hop.text)))
      }
    })
    return list
  }

  // ---- the charts (inline SVG), one x axis for all ----
  function charts (data) {
    const box = el('div', { class: 'chart' })
    for (const one of data.charts) box.append(chart(data, one))
    const legend = el('ul', { class: 'legend' })
    for (const one of data.charts) {
      for (const s of one.series) legend.append(el('li', null, el('span', { class: `swatch k-${s.key}` }), `${s.label}: ${s.points.map((p) => p.label).join(' → ')}`))
    }
    if (data.charts.some((one) => one.projection)) legend.append(el('li', null, el('span', { class: 'swatch dashed' }), 'projected at the current rate'))
    box.append(legend, ...data.notes.map((note) => el('p', { class: 'muted' }, note)))
    return box
  }

  function chart (data, one) {
    const width = 820
    const height = data.charts.length > 1 ? 200 : 260
    const m = { left: 70, right: 20, top: 14, bottom: 40 }
    const w = width - m.left - m.right
    const h = height - m.top - m.bottom
    const sx = (x) => m.left + ((x - data.xMin) / ((data.xMax - data.xMin) || 1)) * w
    const sy = (y) => m.top + h - ((y - one.yMin) / ((one.yMax - one.yMin) || 1)) * h
    const names = one.series.map((s) => s.label).join(', ')
    const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${names} over the series` })
    root.append(svg('title', null, `${names} over the series`))
    for (const tick of one.yTicks) {
      root.append(svg('line', { class: 'grid', x1: m.left, x2: width - m.right, y1: sy(tick.value), y2: sy(tick.value) }))
      root.append(svg('text', { x: m.left - 8, y: sy(tick.value) + 4, 'text-anchor': 'end' }, tick.label))
    }
    for (const tick of data.xTicks) {
      root.append(svg('line', { class: 'axis', x1: sx(tick.value), x2: sx(tick.value), y1: m.top + h, y2: m.top + h + 5 }))
      root.append(svg('text', { x: sx(tick.value), y: m.top + h + 18, 'text-anchor': 'middle' }, tick.label))
    }
    root.append(svg('line', { class: 'axis', x1: m.left, x2: width - m.right, y1: m.top + h, y2: m.top + h }))
    root.append(svg('line', { class: 'axis', x1: m.left, x2: m.left, y1: m.top, y2: m.top + h }))
    root.append(svg('text', { x: m.left + w / 2, y: height - 4, 'text-anchor': 'middle' }, data.xLabel))
    if (one.limit) {
      root.append(svg('line', { class: 'limit', x1: m.left, x2: width - m.right, y1: sy(one.limit.y), y2: sy(one.limit.y) }))
      root.append(svg('text', { class: 'limit-label', x: width - m.right - 4, y: sy(one.limit.y) - 6, 'text-anchor': 'end' }, one.limit.label))
    }
    if (one.projection) {
      const p = one.projection
      root.append(svg('line', { class: `projection k-${p.series}`, x1: sx(p.x1), y1: sy(p.y1), x2: sx(p.x2), y2: sy(p.y2) }))
    }
    for (const series of one.series) {
      root.append(svg('polyline', { class: `series k-${series.key}`, points: series.points.map((p) => `${sx(p.x)},${sy(p.y)}`).join(' ') }))
      for (const p of series.points) {
        const dot = svg('circle', { class: `point k-${series.key}`, cx: sx(p.x), cy: sy(p.y), r: 4 })
        dot.append(svg('title', null, `${series.label}: ${p.label}`))
        root.append(dot)
      }
    }
    return root
  }

  // ---- copy buttons ----
  function copyButton (text, what) {
    const button = el('button', { type: 'button', 'aria-label': `copy ${what}` }, 'Copy')
    button.addEventListener('click', () => {
      const done = (ok) => {
        button.textContent = ok ? 'Copied' : 'Select and copy'
        setTimeout(() => { button.textContent = 'Copy' }, 1500)
      }
      const fallback = () => {
        const area = el('textarea', { readonly: '', 'aria-hidden': 'true' })
        area.value = text
        area.style.position = 'fixed'
        area.style.opacity = '0'
        document.body.append(area)
        area.select()
        let ok = false
        try {
          ok = document.execCommand('copy')
        } catch {}
        area.remove()
        done(ok)
      }
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(() => done(true), fallback)
      else fallback()
    })
    return button
  }

  function evidenceList (pairs) {
    const list = el('dl', { class: 'evidence' })
    for (const [term, value] of pairs) if (value) list.append(el('dt', null, term), el('dd', { class: 'mono' }, value))
    return list
  }

  function findingCard (finding, index) {
    const card = el('article', { class: 'panel finding', 'aria-label': `finding ${index + 1}: ${finding.signature}` })
    card.append(el('h3', null,
      el('span', { class: 'number' }, String(index + 1)),
      el('span', { class: 'signature' }, finding.signature),
      el('span', { class: 'muted' }, `confidence ${finding.confidence}`)))
    card.append(el('div', null, el('span', { class: 'location mono' }, finding.location), finding.role ? el('span', { class: 'muted' }, `  (${finding.role})`) : null))
    if (finding.ranAs) card.append(el('div', { class: 'muted mono' }, finding.ranAs))
    if (finding.inside) card.append(el('div', { class: 'muted mono' }, finding.inside))
    card.append(el('p', { class: 'title' }, finding.title))
    card.append(pathList(finding.path))
    const counts = finding.counts.join(' → ') + (finding.perStep ? `   (${finding.perStep})` : '')
    card.append(evidenceList([
      ['owner', finding.owner],
      [finding.unit, counts],
      ['', finding.note],
      ['retained', finding.retained.join(' → ') + (finding.retainedPerStep ? `   (${finding.retainedPerStep})` : '')],
      ['allocated at', finding.allocated ? [finding.allocated.site, finding.allocated.via, finding.allocated.amount].filter(Boolean).join('  ') : '']
    ]))
    if (finding.notes.length > 0) card.append(el('ul', { class: 'notes' }, ...finding.notes.map((note) => el('li', null, note))))
    // Findings this one's objects hold: the same cause, fixed by this card's fix.
    if (finding.also.length > 0) {
      card.append(el('ul', { class: 'notes also', 'aria-label': 'findings with the same cause' }, ...finding.also.map((held) => el('li', null,
        el('strong', null, 'also '), held.held, ': ', el('span', { class: 'signature' }, held.signature), ' at ',
        el('span', { class: 'mono' }, held.location), `, ${held.title}`, pathList(held.path)))))
    }
    if (finding.source) {
      card.append(el('figure', { class: 'source' },
        el('figcaption', { class: 'file mono' }, finding.source.file),
        el('ol', { class: 'mono' }, ...finding.source.lines.map((line) => el('li', line.marked ? { class: 'marked', 'aria-current': 'true' } : null, el('span', { class: 'ln' }, String(line.number)), line.text)))))
    }
    const fix = el('div', { class: 'fix' }, el('p', { class: 'summary' }, el('strong', null, 'Fix '), finding.fix.summary))
    if (finding.fix.snippet) fix.append(el('div', { class: 'code' }, el('pre', null, el('code', null, finding.fix.snippet)), copyButton(finding.fix.snippet, 'the fix')))
    card.append(fix)
    if (finding.reasons.length > 0) card.append(el('details', { class: 'reasons' }, el('summary', null, 'Why this confidence'), el('ul', null, ...finding.reasons.map((r) => el('li', null, r)))))
    return card
  }

  // ---- sortable, filterable tables (DevTools' Comparison and Summary views) ----
  function classTable (table, noun) {
    const columns = table.columns
    let sortKey = table.sortedBy
    let descending = true
    const tbody = el('tbody')
    const rows = table.rows.map((row) => {
      const tr = el('tr', null, ...columns.map((column) => {
        const cell = row[column.key]
        const sign = column.numeric && /^[+-]/.test(cell.text) ? (cell.value > 0 ? ' positive' : cell.value < 0 ? ' negative' : '') : ''
        return el('td', { class: (column.numeric ? 'num' : 'name') + sign }, cell.text)
      }))
      return { row, tr, name: String(row.name.value).toLowerCase() }
    })
    const headers = columns.map((column) => {
      const button = el('button', { type: 'button' }, column.label)
      const th = el('th', { scope: 'col', class: column.numeric ? 'num' : '', 'data-key': column.key }, button)
      button.addEventListener('click', () => {
        if (sortKey === column.key) descending = !descending
        else descending = column.numeric
        sortKey = column.key
        render()
      })
      return th
    })
    const filter = el('input', { type: 'search', placeholder: `Filter ${noun} by name`, 'aria-label': `filter ${noun} by name` })
    const shown = el('span', { class: 'muted', 'aria-live': 'polite' })
    function render () {
      for (const th of headers) {
        if (th.getAttribute('data-key') === sortKey) th.setAttribute('aria-sort', descending ? 'descending' : 'ascending')
        else th.removeAttribute('aria-sort')
      }
      const sorted = rows.slice().sort((a, b) => {
        const x = a.row[sortKey].value
        const y = b.row[sortKey].value
        const order = typeof x === 'number' ? x - y : String(x).localeCompare(String(y))
        return descending ? -order : order
      })
      const query = filter.value.trim().toLowerCase()
      let count = 0
      for (const entry of sorted) {
        entry.tr.hidden = query !== '' && !entry.name.includes(query)
        if (!entry.tr.hidden) count++
        tbody.append(entry.tr)
      }
      shown.textContent = `${count} of ${rows.length} ${noun}`
    }
    filter.addEventListener('input', render)
    render()
    return el('div', { class: 'panel' },
      el('div', { class: 'toolbar' }, filter, shown),
      el('div', { class: 'table-wrap' }, el('table', { class: 'classes' }, el('thead', null, el('tr', null, ...headers)), tbody)))
  }

  function warnings (list) {
    return list.map((warning) => el('p', { class: 'warning', role: 'note' }, `warning: ${warning}`))
  }

  function footer (text) {
    return el('footer', null, text)
  }

  // ---- the pages ----
  function diffPage () {
    const header = panel(
      el('h1', null, 'leakdiff', el('span', { id: 'verdict', class: `badge ${view.verdict}` }, view.verdict.toUpperCase())),
      el('p', { class: 'reason', id: 'reason' }, view.reason),
      ...view.rate.map((line) => el('p', { class: 'rate' }, line)),
      view.leaked ? el('p', { class: 'muted' }, view.leaked) : null)
    const facts = el('dl', { class: 'facts' })
    if (view.process) {
      const p = view.process
      facts.append(el('dt', null, 'Process'), el('dd', { id: 'process' }, `pid ${p.pid}${p.hostname ? ` on ${p.hostname}` : ''}${p.nodeVersion ? `, Node ${p.nodeVersion}` : ''}${p.script ? `, ${p.script}` : ''}`))
    }
    if (view.span.from && view.span.to) {
      facts.append(el('dt', null, 'Time span'), el('dd', null, `${view.span.from} → ${view.span.to}${view.span.duration ? ` (${view.span.duration})` : ''}${view.span.source ? `, by ${view.span.source}` : ''}`))
    }
    facts.append(el('dt', null, 'Snapshots'), el('dd', { class: 'mono' }, view.snapshots.map((s) => `${s.name} (${s.totalSize})`).join(' → ')))
    facts.append(el('dt', null, 'Heap'), el('dd', null, view.heap))
    header.append(facts, ...warnings(view.warnings))
    main.append(header)

    main.append(el('h2', null, 'Heap over the series'), panel(charts(view.chart)))

    main.append(el('h2', null, `Findings (${view.findings.length})`))
    if (view.findings.length === 0) main.append(panel(el('p', { class: 'muted' }, 'No leak signature matched.')))
    view.findings.forEach((finding, i) => main.append(findingCard(finding, i)))

    if (view.growth.length > 0) {
      main.append(el('h2', null, 'Growth by owner'))
      const hidden = view.growthHidden
      main.append(panel(el('ol', { class: 'growth' }, ...view.growth.map((g) => el('li', { value: String(g.number) },
        el('div', null, el('strong', { class: 'mono' }, g.owner), g.owners > 1 ? ` ×${g.owners} owners` : '', '  ', el('span', { class: g.leak ? 'badge leak' : 'badge clean' }, g.leak ? 'leak' : 'ok')),
        evidenceList([['new objects', `${g.newObjects.text} (${g.newBytes.text})`], ['retained', g.retained], ['holds', g.holds]]),
        pathList(g.path)))),
      hidden > 0 ? el('p', { class: 'muted' }, `And ${hidden} small owner row${hidden === 1 ? '' : 's'} that ${hidden === 1 ? 'is' : 'are'} not leaking (the JSON report lists them).`) : null))
    }

    main.append(el('h2', null, 'Classes (comparison)'))
    main.append(view.classes.rows.length === 0 ? panel(el('p', { class: 'muted' }, 'No class gained or lost objects.')) : classTable(view.classes, 'classes'))
    main.append(footer('Chrome DevTools opens the snapshots (Memory → Load) and shows objects as @id. Made by leakdiff.'))
  }

  function inspectPage () {
    main.append(panel(
      el('h1', null, 'leakdiff inspect'),
      el('p', { class: 'reason mono' }, view.snapshot.name),
      el('p', { class: 'muted' }, view.snapshot.facts),
      el('p', { class: 'rate' }, `heap ${view.snapshot.totalSize} (total retained size, as Chrome DevTools shows it)`),
      ...warnings(view.warnings)))
    main.append(el('h2', null, 'Classes (summary)'), classTable(view.classes, 'classes'))
    main.append(el('h2', null, 'Largest dominators'))
    if (view.dominators.length === 0) main.append(panel(el('p', { class: 'muted' }, 'None above 0.01% of the heap.')))
    main.append(el('ol', { class: 'dominators' }, ...view.dominators.map((d) => el('li', { class: 'panel' },
      el('div', null, el('strong', { class: 'mono' }, `${d.name} @${d.id}`), ` retains ${d.retained} (shallow ${d.shallow})`),
      bar(d.share),
      pathList(d.path)))))
    main.append(footer('Chrome DevTools opens the snapshot (Memory → Load) and shows objects as @id. Made by leakdiff.'))
  }

  function bar (share) {
    const node = el('div', { class: 'bar', role: 'presentation' })
    node.style.width = `${Math.max(0.5, Math.min(100, share * 100))}%`
    return node
  }

  main.textContent = ''
  if (view.kind === 'diff') diffPage()
  else inspectPage()
})()
