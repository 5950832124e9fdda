"""Work in other processes: forked children that share a parse and send frames back (`forked`),
and what every child does first, die with its parent (`procs`). Nothing here knows a frontend;
switching a worker off gives the same output."""
