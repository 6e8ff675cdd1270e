// The `agent-skills` command line: validate, list, catalog and activate skills over the core engine.
process.stdout.write('agent-skills\n');
