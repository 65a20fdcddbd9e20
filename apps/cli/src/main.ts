process.stdout.write("lm\n");
