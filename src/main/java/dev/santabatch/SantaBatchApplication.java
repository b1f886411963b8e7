package dev.santabatch;

import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class SantaBatchApplication {
    public static void main(String[] args) {
        System.exit(dev.santabatch.cli.Cli.run(args));
    }
}
