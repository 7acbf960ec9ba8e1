// Package web serves lucid web: a live page, on the loopback address, of a
// repository's agents, claims on the work tree, log and plan, with the
// person's hand on them (release a claim, write the plan, record, supersede,
// send a message).
//
// It keeps no state of its own: every answer is read through package board
// from the files the hooks write, and one board.Watch per server tells every
// open page what changed, as Server-Sent Events. The log is read a page at a
// time from its end and followed from a tail, never loaded whole.
//
// The page acts as the person, so every request but those of the page's
// own files carries the random token of the printed URL in its
// Authorization header, every request names the server's own host (no DNS
// rebinding), and a request that changes anything comes from the page's own
// origin as JSON (no cross-site request). No cookie holds the token: the
// browser would send it to every server of the address, whatever its port.
// The page keeps it in its tab's sessionStorage, its origin's alone. What the page shows was written by
// models: it puts text in the page as text, never as markup.
//
// It is linked only into lucid-view, never into lucid, whose every hook
// would pay for net/http's initialisation.
package web
