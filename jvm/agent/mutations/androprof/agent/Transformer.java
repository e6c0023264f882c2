package androprof.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.commons.AdviceAdapter;

import static org.objectweb.asm.Opcodes.*;

/**
 * Transformer makes each reference store of a class call {@link Mutations}: putfield and
 * putstatic of a reference field, and aastore. The inserted code starts where the store was and
 * leaves the stack as it found it (an aastore becomes a call with the same operands), so every
 * stack map frame still describes its offset: the writer computes only the maximum stack
 * (COMPUTE_FRAMES would load classes inside the transformer to find common superclasses).
 */
final class Transformer implements ClassFileTransformer {
    private static final String RUNTIME = "androprof/agent/Mutations";

    // The JDK, this agent and its ASM. The boot loader's classes (the JDK's core, most loaded
    // before premain anyway) are never instrumented, but the platform loader loads JDK classes
    // too (java.sql, javax.*, jdk.*).
    private static final String[] SKIPPED = {
        "java/", "javax/", "jdk/", "sun/", "com/sun/", "org/objectweb/asm/", "androprof/agent/",
    };

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
        if (loader == null || name == null || skipped(name)) {
            return null;
        }
        try {
            ClassReader r = new ClassReader(bytes);
            ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
            ClassStores s = new ClassStores(w);
            // AdviceAdapter (constructors only) renumbers locals, which needs frames expanded.
            r.accept(s, ClassReader.EXPAND_FRAMES);
            return s.changed ? w.toByteArray() : null;
        } catch (Throwable e) {
            // The JVM would drop the exception silently; the class runs as it is, unrecorded.
            System.err.println("androprof mutations: " + name.replace('/', '.') + " not instrumented: " + e);
            return null;
        }
    }

    private static boolean skipped(String name) {
        for (String p : SKIPPED) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** ClassStores instruments each method of one class. */
    private static final class ClassStores extends ClassVisitor {
        boolean changed;
        private final Map<String, Integer> fields = new HashMap<>(); // "owner.name" → Mutations id

        ClassStores(ClassVisitor next) {
            super(ASM9, next);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
            if (mv == null) {
                return null;
            }
            boolean constructor = name.equals("<init>");
            MethodStores m = new MethodStores(mv, this, !constructor);
            return constructor ? new SuperCall(m, access, name, desc) : m;
        }

        // field is a plain lookup, no lambda: bootstrapping one inside a transformer loads classes.
        int field(String owner, String name) {
            Integer id = fields.get(owner + "." + name);
            if (id == null) {
                id = Mutations.field(owner, name);
                fields.put(owner + "." + name, id);
            }
            return id;
        }
    }

    /** MethodStores puts a call before or in place of each reference store of one method. */
    private static final class MethodStores extends MethodVisitor {
        private final ClassStores cls;
        boolean thisReady; // false in a constructor until super() or this() returned

        MethodStores(MethodVisitor next, ClassStores cls, boolean thisReady) {
            super(ASM9, next);
            this.cls = cls;
            this.thisReady = thisReady;
        }

        @Override
        public void visitFieldInsn(int op, String owner, String name, String desc) {
            boolean ref = desc.charAt(0) == 'L' || desc.charAt(0) == '[';
            // Before super(), javac stores this$0 and captured variables into an uninitialized
            // this, which must not be passed to a method: those stores are not recorded.
            if (ref && op == PUTFIELD && thisReady) { // [obj, value]
                super.visitInsn(DUP2);
                super.visitLdcInsn(cls.field(owner, name));
                super.visitMethodInsn(INVOKESTATIC, RUNTIME, "putField", "(Ljava/lang/Object;Ljava/lang/Object;I)V", false);
                cls.changed = true;
            } else if (ref && op == PUTSTATIC) { // [value]
                super.visitInsn(DUP);
                super.visitMethodInsn(INVOKESTATIC, RUNTIME, "putStatic", "(Ljava/lang/Object;)V", false);
                cls.changed = true;
            }
            super.visitFieldInsn(op, owner, name, desc);
        }

        @Override
        public void visitInsn(int op) {
            if (op != AASTORE) {
                super.visitInsn(op);
                return;
            }
            // [array, index, value]: the call stores and records.
            super.visitMethodInsn(INVOKESTATIC, RUNTIME, "arrayStore", "([Ljava/lang/Object;ILjava/lang/Object;)V", false);
            cls.changed = true;
        }
    }

    /** SuperCall tells a constructor's MethodStores when super() or this() has returned. */
    private static final class SuperCall extends AdviceAdapter {
        private final MethodStores method;

        SuperCall(MethodStores method, int access, String name, String desc) {
            super(ASM9, method, access, name, desc);
            this.method = method;
        }

        @Override
        protected void onMethodEnter() {
            method.thisReady = true;
        }
    }
}
