/** The consumer as a module: it reads the library and nothing else of it. */
module example.consumer {
    requires io.github.stripedpool;
}
