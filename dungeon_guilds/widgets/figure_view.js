function plotlyAt(src) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__dgPlotly) {
    window.__dgPlotly = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => { window.__dgPlotly = null; reject(new Error(src)); };
      document.head.appendChild(script);
    });
  }
  return window.__dgPlotly;
}
function baseUrl() {
  try {
    return JSON.parse(document.getElementById('jupyter-config-data').textContent).baseUrl || '/';
  } catch (e) {
    return '/';
  }
}
function render({ model, el }) {
  const box = document.createElement('div');
  box.className = 'dg-lazy-plot';
  el.appendChild(box);
  let plotly = null;
  let started = false;
  function size() {
    const layout = (model.get('figure') || {}).layout || {};
    box.style.minHeight = (layout.height || 450) + 'px';
  }
  function draw() {
    const fig = model.get('figure') || {};
    plotly.react(box, fig.data || [], fig.layout || {}, fig.config || {});
  }
  function start() {
    if (started) return;
    started = true;
    box.classList.remove('dg-lazy-plot-failed');
    box.textContent = '';
    const src = new URL(model.get('src'), new URL(baseUrl(), window.location.href)).href;
    plotlyAt(src).then((p) => { plotly = p; box.classList.add('dg-lazy-plot-drawn'); draw(); })
      .catch(() => {
        // say so, in words, and try again on a click (a network blip, a server restarting)
        started = false;
        box.classList.add('dg-lazy-plot-failed');
        box.textContent = model.get('failed_text');
      });
  }
  box.addEventListener('click', () => { if (!plotly) start(); });
  size();
  if ('IntersectionObserver' in window) {
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { seen.disconnect(); start(); }
    }, { rootMargin: '300px' });
    seen.observe(box);
  } else {
    start();
  }
  model.on('change:figure', () => { size(); if (plotly) draw(); });
  return () => { if (plotly) plotly.purge(box); };
}
export default { render };
