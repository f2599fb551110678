from bench.original.driver import main

raise SystemExit(main())
