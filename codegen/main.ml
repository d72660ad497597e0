let () = Redist_cli.Cli.tune_gc ()
let () = exit (try Redist_cli.Cli.run Sys.argv with _ -> prerr_endline "redist: internal error"; 3)
