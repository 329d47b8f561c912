program p
  x = 
end program
