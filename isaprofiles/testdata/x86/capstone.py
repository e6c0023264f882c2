#!/usr/bin/env python3
"""Disassemble the .text of ELF files with capstone 4 (libcapstone.so.4, the disassembler QEMU 7.2
prints -d in_asm with) in AT&T syntax, as QEMU does, and write each distinct instruction as
"hex bytes<TAB>mnemonic<TAB>operands" for each distinct encoding. Used by TestX86CapstoneAgrees.

usage: capstone.py OUT.tsv ELF...
"""
import ctypes
import subprocess
import sys
import tempfile

CS_ARCH_X86, CS_MODE_64 = 3, 8
CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT = 1, 2
CS_OPT_SKIPDATA, CS_OPT_ON = 5, 3


class Insn(ctypes.Structure):  # cs_insn of capstone 4 (16 bytes; capstone 5 has 24)
    _fields_ = [('id', ctypes.c_uint), ('address', ctypes.c_uint64), ('size', ctypes.c_uint16),
                ('bytes', ctypes.c_ubyte * 16), ('mnemonic', ctypes.c_char * 32),
                ('op_str', ctypes.c_char * 160), ('detail', ctypes.c_void_p)]


def main(out_path, elves):
    cs = ctypes.CDLL('libcapstone.so.4')
    cs.cs_option.argtypes = [ctypes.c_size_t, ctypes.c_int, ctypes.c_size_t]
    cs.cs_disasm.argtypes = [ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64,
                             ctypes.c_size_t, ctypes.POINTER(ctypes.POINTER(Insn))]
    cs.cs_disasm.restype = ctypes.c_size_t
    handle = ctypes.c_size_t()
    if cs.cs_open(CS_ARCH_X86, CS_MODE_64, ctypes.byref(handle)) != 0:
        sys.exit('cs_open failed')
    cs.cs_option(handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT)
    cs.cs_option(handle, CS_OPT_SKIPDATA, CS_OPT_ON)
    seen = set()
    with open(out_path, 'w') as out, tempfile.NamedTemporaryFile() as text:
        for elf in elves:
            subprocess.run(['objcopy', '-O', 'binary', '--only-section=.text', elf, text.name], check=True)
            code = open(text.name, 'rb').read()
            insns = ctypes.POINTER(Insn)()
            n = cs.cs_disasm(handle, code, len(code), 0, 0, ctypes.byref(insns))
            for i in range(n):
                enc = bytes(insns[i].bytes[:insns[i].size]).hex()
                if enc not in seen:
                    seen.add(enc)
                    out.write('%s\t%s\t%s\n' % (enc, insns[i].mnemonic.decode(), insns[i].op_str.decode()))
            cs.cs_free(insns, n)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2:])
