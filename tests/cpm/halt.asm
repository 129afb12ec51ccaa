; HALT with interrupts disabled: nothing can wake the CPU.
        ORG     100h
        DI
STOP:   HALT
