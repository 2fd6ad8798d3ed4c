from bagm.cli.app import main

main()
