package androprof.agent;

import java.lang.instrument.Instrumentation;

/**
 * The Java agent of {@code androprof heap --mutations}: it makes every class loaded from now on
 * call {@link Mutations} at each reference store, and the heap agent (heaplog_agent.c, loaded
 * with its "mutations," option) logs each one. The JDK's own classes are loaded by the boot
 * loader, most before this runs, and are left alone (see {@link Transformer}).
 *
 * <pre>
 *   java -agentpath:heaplog_agent.so=mutations,out=LOG -javaagent:androprof-mutations.jar MAIN ARGS...
 * </pre>
 */
public final class Premain {
    private Premain() {}

    public static void premain(String args, Instrumentation inst) {
        inst.addTransformer(new Transformer());
    }
}
