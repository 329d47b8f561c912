; A hand-written module with comments and odd layout.
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0   ; a global

declare i32 @h(i32)

; the function we care about
define i32 @f(i32 %x, ptr %p)   #0
{
start:
  ; comment line
  %a = add nsw i32 %x,    1

  %b = call i32 @h(i32 %a)   ; trailing comment
  switch i32 %b, label %done [
    i32 0, label %z
    i32 1, label %o
  ]
z:
  br label %done
o:
  %addr = select i1 true, ptr blockaddress(@f, %z), ptr %p
  br label %done
done:
  %r = phi i32 [ 0, %start ], [ 1, %z ], [ 2, %o ]
  ret i32 %r
}

attributes #0 = { nounwind }
