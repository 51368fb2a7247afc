// Package hpctoolkit reads an HPCToolkit database into a trial: the
// experiment.xml and *.metric-db files that hpcprof-mpi writes (database
// format 2.x), the way Hatchet's HPCToolkit reader reads it, and the
// meta.db and profile.db of HPCToolkit 2022 and later (format 4; see
// readTree4 and docs/formats/hpctoolkit.md: execution-scope values are the
// inclusive values, instructions make no node).
//
// experiment.xml gives the tables (load modules, files, procedures, the
// metric-db columns) and the calling context tree; each metric-db file
// holds, for one thread of one rank, a big-endian float64 for every
// (context id, metric-db column). The rank and thread come from the file
// name (prog-RANK-THREAD-host-pid-gen.metric-db), as in Hatchet.
//
// Contexts become regions and callpaths as Hatchet distinguishes them:
// procedure frames (PF, and Pr with a name) are regions named after the
// procedure; loops (L) are "Loop@file:line"; statements (S) are
// "file:line", file being the one of the enclosing procedure or loop;
// call sites (C) and nameless Pr make no node of their own. A statement's
// or loop's exclusive value is taken out of its parent's, since in the
// database a procedure's or loop's exclusive value covers every statement
// of its body; so exclusive values add up to the root's inclusive value
// without counting anything twice. Hatchet does this for statements only,
// so for a procedure that contains a loop its exclusive value is larger
// than this reader's by the loop's exclusive value.
// Inclusive/exclusive metric-db columns named "X (I)" and "X (E)" (paired
// by their partner attribute) become one metric X; a metric with only one
// of the two gets the other derived from the tree. "(sec)" metrics are
// turned into microseconds ("(usec)"). The <M> summary values inside
// experiment.xml are not read (the metric-db files hold every value), nor
// are flat-profile sections, trace databases or metric formulas.
//
// Every file is checked against what experiment.xml and its own header
// promise (size, context ids, finite values) before the trial is built;
// bad input gives an *Error naming the file and the byte offset. Memory
// is one float64 per (context, thread, metric), as in the trial itself.
package hpctoolkit
