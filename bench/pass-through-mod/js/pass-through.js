// The events compact-plus hooks, each passed on untouched: what the engine costs for hosting such a
// mod (a hooks worker, a module to load, a hop per hook), with none of compact-plus's own work.
function pass($, e, next) {
  return next(e)
}

export function register(on) {
  on('session.compact', pass).catch(($, e, next) => next(e))
  on('session.append', { door: 'compaction' }, pass).catch(($, e, next) => next(e))
  on('prompt.context', pass).catch(($, e, next) => next(e))
  on('turn.complete', pass).catch(($, e, next) => next(e))
  on('session.end', pass).catch(($, e, next) => next(e))
  on('tool.list', pass).catch(($, e, next) => next(e))
}
